// Little on top of htmx: follow a table that moved on (game started, play again),
// tell a player in the tab title that it is their turn, and copy the invite link.
(function () {
  "use strict";
  var TURN_MARK = "▶ ";

  // A page follows the table where it went (the game started, or goes on at the next
  // table) once. The pushed table says so in each of its elements (the table, the
  // announcement), and the player who pressed the button is also answered with htmx's
  // HX-Redirect: each new load cut the one before short, and every page loaded the
  // next table twice.
  var following = false;
  function follow(url) {
    if (following) return;
    following = true;
    window.location.assign(url);
  }
  function redirectOnce(event) {
    var url = event.detail.xhr.getResponseHeader("HX-Redirect");
    if (!url) return;
    event.preventDefault(); // followed here, not by htmx as well
    follow(url);
  }
  // Listened for on the element that asked, not on the document: a pushed table may
  // take that element (the Play again form) off the page before its answer comes, and
  // htmx's event on an element no longer in the page never reaches the document, so
  // htmx went to the HX-Redirect itself, a second load.
  document.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.elt.addEventListener("htmx:beforeOnLoad", redirectOnce, { once: true });
  });
  // a page the browser kept and shows again (back, forward) may follow again
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) following = false;
  });

  // The table comes the same to every browser at it (games/rendering.py): the controls
  // of the player to move (if-mine) and what the others see in their place (if-theirs),
  // Play again for the players (if-player) and the review for the spectators
  // (if-spectator), the skip offers for the host or the players (data-skippers). This
  // page is its viewer's: the player to move (data-to-move) is its own when #me plays
  // them (the page's load says so, and the server again when a seat changes hands), and
  // the page's classes say whether it hosts and plays. It keeps its viewer's part of
  // each table as the table comes in, before it is shown, and marks its turn (my-turn).
  function isMine(table) {
    var me = document.getElementById("me");
    var toMove = table && table.getAttribute("data-to-move");
    if (!me || toMove === null) return false;
    return (me.getAttribute("data-players") || "").split(" ").indexOf(toMove) >= 0;
  }
  function keepOwnPart(part, table) {
    var page = document.querySelector(".table-page");
    if (!page || !part || !table) return;
    var mine = isMine(table);
    var player = page.classList.contains("player");
    var host = page.classList.contains("host");
    var skippers = table.getAttribute("data-skippers");
    var gone = [mine ? ".if-theirs" : ".if-mine", player ? ".if-spectator" : ".if-player"];
    if (mine || !skippers || !(host || (player && skippers === "players"))) {
      gone.push(".skip-offer");
    }
    part.querySelectorAll(gone.join(",")).forEach(function (element) { element.remove(); });
  }
  function markMine() {
    var page = document.querySelector(".table-page");
    if (!page) return false;
    var mine = isMine(document.getElementById("table"));
    page.classList.toggle("my-turn", mine);
    // several seats at this screen (pass and play): the dice's bar says to hand it on
    var me = document.getElementById("me");
    var seats = me ? (me.getAttribute("data-players") || "").split(" ").filter(Boolean) : [];
    page.classList.toggle("hot-seat", seats.length > 1);
    return mine;
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    markMine();
    // another seat is this page's now (a take-back, a handover): the table on screen
    // kept the part of the seats it had, so it is asked for again
    if (event.target.id === "me") resync();
  });
  // A button this page shows (a control of another viewer's is in the table, hidden).
  function shown(element) {
    return !!element && element.getClientRects().length > 0;
  }

  function afterUpdate() {
    var moved = document.querySelector("[data-redirect]");
    if (moved) {
      follow(moved.getAttribute("data-redirect"));
      return;
    }
    var myTurn = markMine();
    // The page's own title as last set (htmx sets another with a page put in place of
    // this one, such as a refusal's), marked while it is this browser's turn.
    var title = document.title;
    if (title.indexOf(TURN_MARK) === 0) title = title.slice(TURN_MARK.length);
    document.title = myTurn ? TURN_MARK + title : title;
    if (myTurn && wasMyTurn === false) signalTurn();
    wasMyTurn = !!myTurn;
  }

  // Optional sounds, each off until asked for and remembered by the browser: a chime
  // when the turn comes to this browser (data-sound="turn") and the rattle of a roll
  // (data-sound="dice"), both made by the Web Audio API. window.yatzyTurnSignals and
  // window.yatzyRollSounds count them, for the browser tests.
  var SOUND_KEYS = { turn: "yatzy-sound", dice: "yatzy-dice-sound" };
  var wasMyTurn = null;
  var audio = null;
  window.yatzyTurnSignals = 0;
  window.yatzyRollSounds = 0;
  function soundOn(kind) {
    return !!window.localStorage && localStorage.getItem(SOUND_KEYS[kind]) === "1";
  }
  function showSound() {
    document.querySelectorAll("[data-sound]").forEach(function (button) {
      button.hidden = false; // of no use without JavaScript
      button.setAttribute("aria-pressed", soundOn(button.getAttribute("data-sound")) ? "true" : "false");
    });
  }
  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }
  function signalTurn() {
    if (!soundOn("turn")) return;
    window.yatzyTurnSignals += 1;
    if (!audioContext()) return;
    var tone = audio.createOscillator();
    var volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  }
  // dice on a table: a few short clicks of noise at random moments in 0.4 s
  function rattle() {
    window.yatzyRollSounds += 1;
    if (!audioContext()) return;
    var rate = audio.sampleRate;
    var length = Math.floor(rate * 0.45);
    var buffer = audio.createBuffer(1, length, rate);
    var samples = buffer.getChannelData(0);
    var click = Math.floor(rate * 0.025);
    for (var hit = 0; hit < 7; hit++) {
      var start = Math.floor(Math.random() * (length - click));
      for (var i = 0; i < click; i++) {
        samples[start + i] += (Math.random() * 2 - 1) * Math.exp((-5 * i) / click) * 0.6;
      }
    }
    var source = audio.createBufferSource();
    source.buffer = buffer;
    var filter = audio.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = 2400;
    filter.Q.value = 0.9;
    source.connect(filter).connect(audio.destination);
    source.start();
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-sound]");
    if (!button) return;
    var kind = button.getAttribute("data-sound");
    localStorage.setItem(SOUND_KEYS[kind], soundOn(kind) ? "0" : "1");
    if (soundOn(kind)) audioContext(); // allowed now, by this press, for later sounds
    showSound();
  });
  document.addEventListener("DOMContentLoaded", showSound);

  // A roll tumbles the dice it rolled, not the held ones, in every browser at the
  // table, as the table that carries it comes in (the roller's answer, everyone else's
  // push): the dice area names its roll ("turn.roll"), and a table of another roll than
  // the one on screen brings a new roll. Not on the page's first table, and nothing
  // moves under prefers-reduced-motion. The class goes on once htmx has settled the
  // new table: settling gives each element of an id its own class back.
  var shownRoll = null;
  var lessMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  function rollShown() {
    var area = document.querySelector("#table .dice-area");
    return area ? area.getAttribute("data-roll") : "";
  }
  function showRoll() {
    var roll = rollShown();
    if (roll === shownRoll) return;
    var first = shownRoll === null;
    shownRoll = roll;
    if (first || !roll) return;
    if (!(lessMotion && lessMotion.matches)) {
      document.querySelectorAll("#table .die:not(.held)").forEach(function (die) {
        die.classList.add("rolling");
      });
    }
    if (soundOn("dice")) rattle();
  }
  document.addEventListener("DOMContentLoaded", showRoll);
  document.addEventListener("htmx:afterSettle", showRoll);
  document.addEventListener("htmx:wsAfterMessage", showRoll);

  document.addEventListener("htmx:afterSettle", afterUpdate);
  document.addEventListener("htmx:oobAfterSwap", afterUpdate);
  document.addEventListener("DOMContentLoaded", afterUpdate);

  // A link to copy that comes without a request (a push over the socket knows no
  // address of the site) comes as a path: it is shown and copied whole. (A page's own,
  // and an answer's, are whole already.)
  function wholeLinks() {
    document.querySelectorAll("input[data-link]").forEach(function (field) {
      field.value = new URL(field.value, window.location.href).href;
    });
  }
  document.addEventListener("htmx:wsAfterMessage", wholeLinks);

  // Copy the invite link. navigator.clipboard exists only on HTTPS and localhost: a
  // site served on the home network (make run on a laptop, friends on their phones)
  // copied nothing, silently. There the older command does it. Either way the button
  // says it worked, for a moment.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    field.select();
    function copied() {
      if (!button.hasAttribute("data-label")) {
        button.setAttribute("data-label", button.textContent);
      }
      button.textContent = button.getAttribute("data-copied");
      clearTimeout(button.copiedTimer);
      button.copiedTimer = setTimeout(function () {
        button.textContent = button.getAttribute("data-label");
      }, 2000);
    }
    function byCommand() {
      if (document.execCommand && document.execCommand("copy")) copied();
    }
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(copied, byCommand);
    else byCommand();
  });

  // A laptop waking from sleep or a phone coming back online may hold a socket that
  // died silently: fetch the table once, so the page is right before the socket is.
  // (From the table's own address: a page shown for a refused POST, say of the seat's
  // take-back, has the POST's address, which answers a GET with 405.)
  function resync() {
    var table = document.getElementById("table");
    var page = document.querySelector("[data-table-url]");
    if (table && page && window.htmx) {
      var url = page.getAttribute("data-table-url");
      return window.htmx.ajax("GET", url, { target: "#table", swap: "none" });
    }
    return null;
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") resync();
  });

  // The page's link to the table, said in #connection (empty while all is well). A
  // socket that drops (a phone losing its network, the server restarting) comes back by
  // itself within ~5 s; the table it is sent on connecting is the table as it is now. A
  // move that could not reach the server is said so, not dropped without a word.
  var RETRIED_BY_HTMX = [1006, 1011, 1012, 1013]; // the close codes the ws extension retries
  // The server's own close codes (games/readers.py, games/consumers.py), which this
  // page retries itself: a page that did not read its messages in time connects again
  // at once; while the live updates are paused (Redis is down) it tries again, less
  // and less often.
  var SLOW_READER = 4408;
  var TRY_AGAIN_LATER = 4503;
  var pausedTries = 0; // since the socket last brought a message
  // what the page says on each of the server's own close codes; a code not here says
  // "lost" if the socket is tried again, else "closed" (an unknown game: reload)
  var SAID_ON_CLOSE = {
    4408: "lost",
    4409: "crowded", // this browser has too many sockets open: not tried again
    4429: "limited", // connecting too often from this browser or network: not tried again
    4503: "paused"
  };
  var leaving = false;
  var lost = false;
  function reconnectDelay(tries) {
    // 0.25-0.5 s, then doubling up to 2.5-5 s: htmx's own doubles up to 64 s, and
    // a player back from a minute offline waited up to 18 s for the table
    var ceiling = Math.min(500 * Math.pow(2, tries), 5000);
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }
  if (window.htmx) window.htmx.config.wsReconnectDelay = reconnectDelay;
  function say(state) {
    var line = document.getElementById("connection");
    if (!line) return;
    line.textContent = "";
    line.setAttribute("data-state", state || "");
    if (!state) return;
    var words = document.createElement("p");
    words.textContent = line.getAttribute("data-" + state);
    line.appendChild(words);
  }
  function stateShown() {
    var line = document.getElementById("connection");
    return line ? line.getAttribute("data-state") || "" : "";
  }
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });
  // a page the browser kept and shows again (back, forward) is not leaving any more:
  // its socket, closed as it was hidden, comes back, and a later loss must be said
  window.addEventListener("pageshow", function () { leaving = false; });
  document.addEventListener("htmx:wsClose", function (event) {
    if (leaving) return;
    lost = true;
    var code = event.detail.event.code;
    var retried = RETRIED_BY_HTMX.indexOf(code) >= 0;
    if (code === SLOW_READER || code === TRY_AGAIN_LATER) {
      retried = true;
      var socket = event.detail.socketWrapper;
      var tries = code === TRY_AGAIN_LATER ? pausedTries++ : 0;
      setTimeout(function () { socket.reconnect(); }, reconnectDelay(tries));
    }
    // a move that could not be sent stays said while the socket is tried again:
    // each failed try replaced it within a second, before a player had read it
    if (retried && stateShown() === "unsent") return;
    say(SAID_ON_CLOSE[code] || (retried ? "lost" : "closed"));
  });

  // What this page has handled of its socket's messages, said back to the server
  // ("ack N", games/readers.py): a socket whose page does not answer in time is closed,
  // and one that does holds nothing unread on the server. One answer for the messages
  // of half a second, on the socket they came by (a new one starts counting afresh).
  var ACK_AFTER_MS = 500;
  var handled = 0;
  var ackTimer = null;
  function forgetHandled() {
    handled = 0;
    clearTimeout(ackTimer);
    ackTimer = null;
  }
  document.addEventListener("htmx:wsOpen", forgetHandled);
  document.addEventListener("htmx:wsClose", forgetHandled);
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    pausedTries = 0;
    handled += 1;
    if (ackTimer !== null) return;
    var socket = event.detail.socketWrapper;
    ackTimer = setTimeout(function () {
      ackTimer = null;
      if (handled) socket.send("ack " + handled);
      handled = 0;
    }, ACK_AFTER_MS);
  });
  function sayBack() {
    say("back");
    setTimeout(function () { if (stateShown() === "back") say(""); }, 4000);
  }
  document.addEventListener("htmx:wsOpen", function () {
    if (!lost) return;
    lost = false;
    sayBack();
  });
  // A phone that goes offline says so at once: its socket may not be known lost for a
  // long while (Chromium keeps it open), and the table on screen no longer follows the
  // game. Back online, the table is fetched; if the socket was never lost, that table
  // is the all-clear, else the socket's return is, as above.
  var offline = false;
  window.addEventListener("offline", function () {
    offline = true;
    say("lost");
  });
  window.addEventListener("online", function () {
    var fetched = resync();
    if (!offline) return;
    function upToDate() {
      if (!offline) return;
      offline = false;
      if (!lost && ["closed", "limited", "crowded"].indexOf(stateShown()) < 0) sayBack();
    }
    if (fetched) fetched.then(upToDate, function () {});
    else upToDate();
  });
  document.addEventListener("htmx:sendError", function () { say("unsent"); });
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr.status >= 500) say("failed");
  });
  document.addEventListener("htmx:afterSwap", function () {
    var state = stateShown();
    if (state === "unsent" || state === "failed") say("");
  });

  // An answer to this browser's move and the push of another version can cross on
  // the wire: the table on screen is never replaced by an older one.
  function versionOf(element) {
    var version = element && element.getAttribute("data-version");
    return version ? parseInt(version, 10) : null;
  }
  function isOlder(incoming, shownElement) {
    var shown = versionOf(shownElement || document.getElementById("table"));
    return shown !== null && incoming !== null && incoming < shown;
  }
  // So with the lobby's pushes: a friend's page arriving or leaving changes their seat's
  // "here" or "away", not the host's Start button, which a whole new lobby replaced
  // under the host's finger (the press was lost).
  // An answer to this page's own request (its move, a refusal, the coach) comes in by
  // id as a push does, and replaces the table whole: what it adds (data-answer) is new.
  var PUSHED_PARTS = ["table", "lobby"];
  // the announcement says the turn as the banner does: this page's words of it
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "announcement" && event.detail.fragment) {
      keepOwnPart(event.detail.fragment, document.getElementById("table"));
    }
  });
  var answering = false;
  document.addEventListener("htmx:beforeSwap", function () {
    answering = true;
    queueMicrotask(function () { answering = false; }); // htmx swaps in this same task
  });
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (!target || PUSHED_PARTS.indexOf(target.id) < 0 || !fragment) return;
    var incoming = fragment.id === target.id ? fragment : fragment.querySelector("#" + target.id);
    if (target.id === "table") keepOwnPart(incoming, incoming);
    if (isOlder(versionOf(incoming), target)) {
      event.detail.shouldSwap = false;
    } else if (!answering && incoming && keepUnchanged(target, incoming)) {
      event.detail.shouldSwap = false;
      markMine(); // no swap: htmx tells of none
    }
  });

  // A push of the version on screen tells who is at the table (a friend's phone drops
  // or comes back, this page's own socket arrives): the dice and the scorecard are
  // those on screen. Replacing the whole table then would swap the button under a
  // player's finger between press and release, and the click would be lost, and it
  // would wipe what an answer to this page added (data-answer: a refusal's message, a
  // zero to confirm, the coach's hint), still true at this version. So only the parts
  // that differ are replaced; false leaves it to htmx to swap it all.
  function comparable(element, deep) {
    var copy = element.cloneNode(deep);
    var all = deep ? [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*"))) : [copy];
    all.forEach(function (node) {
      // htmx's own classes (a request in flight) and the whole page's CSRF fields
      // (htmx sends the token in a header) are not what the table shows.
      // (nor is a roll's tumble, nor the fade of a table that scrolls: this page's own)
      var kept = Array.prototype.filter.call(node.classList, function (name) {
        return name.indexOf("htmx-") !== 0 && name !== "rolling" && name !== "more-right";
      });
      if (kept.length) node.setAttribute("class", kept.join(" "));
      else node.removeAttribute("class");
    });
    copy.querySelectorAll('input[name="csrfmiddlewaretoken"]').forEach(function (input) {
      input.remove();
    });
    copy.removeAttribute("hx-swap-oob"); // on a pushed table, not on the one shown
    // who may skip the player to move changes with time alone, at the same version: the
    // skip offer is a part of its own, and the attribute is taken over as it is
    copy.removeAttribute("data-skippers");
    return copy.outerHTML;
  }
  function keyOf(element) {
    return comparable(element, false).replace(/>[\s\S]*$/, ">"); // its tag and attributes
  }
  function keepUnchanged(shown, incoming) {
    if (versionOf(shown) !== versionOf(incoming)) return false;
    if (comparable(shown, false) !== comparable(incoming, false)) return false;
    var skippers = incoming.getAttribute("data-skippers");
    if (skippers) shown.setAttribute("data-skippers", skippers);
    else shown.removeAttribute("data-skippers");
    keepParts(shown, incoming);
    return true;
  }
  // The parts beside the scorecard (.turn-side: the heading, the dice, the presence
  // list, an answer's parts) are a part of parts, kept part by part in their turn.
  function keepParts(shown, incoming) {
    var old = Array.prototype.filter.call(shown.children, function (child) {
      return !child.hasAttribute("data-answer");
    });
    var fresh = Array.prototype.slice.call(incoming.children);
    // Part by part, in order: a part in both and changed is replaced, a part gone is
    // removed, a new part goes in before the next part of both (the host's skip
    // buttons, once the player to move has been away long enough). The answer's own
    // parts stay where they are.
    var oldKeys = old.map(keyOf);
    var freshKeys = fresh.map(keyOf);
    var i = 0;
    for (var j = 0; j < fresh.length; j++) {
      while (i < old.length && oldKeys[i] !== freshKeys[j] && freshKeys.indexOf(oldKeys[i], j) < 0) {
        old[i].remove(); // gone from the table
        i++;
      }
      if (i < old.length && oldKeys[i] === freshKeys[j]) {
        if (old[i].classList.contains("turn-side")) keepParts(old[i], fresh[j]);
        else if (comparable(old[i], true) !== comparable(fresh[j], true)) show(old[i], fresh[j]);
        i++;
      } else {
        if (i < old.length) old[i].before(fresh[j]);
        else shown.appendChild(fresh[j]);
        show(null, fresh[j]); // new in it
      }
    }
    for (; i < old.length; i++) old[i].remove();
  }
  function show(replaced, part) {
    if (replaced) replaced.replaceWith(part);
    if (window.htmx) window.htmx.process(part);
  }

  // After a move the control that had keyboard focus is often gone (a score button,
  // once scored): htmx finds no control of its id and focus falls to the page's top.
  // It goes instead to the next thing to do at the table: the roll, if this browser
  // may roll (the next player at a shared screen), else the turn banner.
  var focusInTable = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var focused = document.activeElement;
    focusInTable = !!(focused && focused.closest && focused.closest("#table"));
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!focusInTable) return;
    focusInTable = false;
    var focused = document.activeElement;
    if (focused && focused !== document.body && document.contains(focused)) return;
    var next = nextToDo();
    if (next) next.focus({ preventScroll: true });
  });

  function nextToDo() {
    var roll = document.getElementById("roll-button");
    return roll && !roll.disabled && shown(roll) ? roll : document.getElementById("turn");
  }

  // The game ends: the turn banner ("Game over") and the final ranking, at the table's
  // top, come into view, once. On a phone the last score was tapped low in the
  // scorecard, and the results stayed above the screen. Not on a page that loaded a
  // game already over: its reader is where they want to be.
  var sawPlaying = false;
  var endShown = false;
  function showTheEnd() {
    var table = document.getElementById("table");
    if (!table) return;
    if (table.classList.contains("playing")) {
      sawPlaying = true;
      return;
    }
    var ranking = table.querySelector(".ranking");
    if (!sawPlaying || endShown || !ranking) return;
    endShown = true;
    var banner = document.getElementById("turn");
    (banner || ranking).scrollIntoView({ block: "start" });
  }
  ["htmx:afterSettle", "htmx:wsAfterMessage", "DOMContentLoaded"].forEach(function (name) {
    document.addEventListener(name, showTheEnd);
  });

  // What an answer to this page adds at the table's top (a zero to confirm, a refusal)
  // was out of sight for a player who had tapped a score at the foot of the scorecard
  // on a phone, and the tap seemed to do nothing. It is brought into view once, and a
  // zero to confirm takes the focus: the next Enter or tap answers it, and a keyboard
  // user need not tab back past the dice to reach it.
  var answered = new WeakSet();
  document.addEventListener("htmx:afterSettle", function () {
    var table = document.getElementById("table");
    var part = table && table.querySelector(".turn-side > form.confirm, .turn-side > #notice");
    if (!part || answered.has(part)) return;
    answered.add(part);
    part.scrollIntoView({ block: "nearest" });
    var yes = part.querySelector("button[type=submit]");
    if (yes) yes.focus({ preventScroll: true });
  });

  // A table pushed over the WebSocket replaces the one on screen, and with it the
  // control that had keyboard focus (htmx keeps focus by id for its own answers, not for
  // pushes): give focus back to the control with the same id in the new table. A player
  // waiting on the turn banner (the computer's, another screen's turn) is taken to the
  // roll when it is theirs again.
  var focusedId = null;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var focused = document.activeElement;
    focusedId = focused && focused.id && focused.closest("#table") ? focused.id : null;
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!focusedId) return;
    var again = focusedId === "turn" ? nextToDo() : document.getElementById(focusedId);
    focusedId = null;
    if (again && document.activeElement !== again && !again.disabled && shown(again)) {
      again.focus({ preventScroll: true });
    }
  });

  // A scorecard of many players is wider than a phone and scrolls sideways. When the
  // turn passes to a player whose column is out of sight, it is scrolled into view (the
  // player would see no score buttons); otherwise it stays where its reader scrolled
  // it, also in the new table each move brings, which starts scrolled to the left.
  var scorecardLeft = 0; // how far the reader left the scorecard scrolled
  var scrolledScorecard = null;
  var currentColumn = null; // the column of the player to move at the last look
  document.addEventListener("scroll", function (event) {
    var scorecard = event.target;
    if (scorecard.matches && scorecard.matches("#table .scorecard-scroll")) {
      scorecardLeft = scorecard.scrollLeft;
    }
    if (scorecard.matches && scorecard.matches(".scorecard-scroll")) markMore(scorecard);
  }, true);

  // A table wider than its place (a scorecard of many players, the review's skill and
  // luck on a phone) fades at its right edge while more of it is out of sight there
  // (site.css): phones show no scroll bar, and the table looked cut off.
  function markMore(scroller) {
    var more = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1;
    scroller.classList.toggle("more-right", more);
  }
  function markAllMore() {
    document.querySelectorAll(".scorecard-scroll").forEach(markMore);
  }
  ["htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage", "DOMContentLoaded"].forEach(
    function (name) { document.addEventListener(name, markAllMore); }
  );
  window.addEventListener("resize", markAllMore);
  function followTurn() {
    var scorecard = document.querySelector("#table .scorecard-scroll");
    if (!scorecard) return;
    if (scorecard !== scrolledScorecard) {
      scrolledScorecard = scorecard;
      scorecard.scrollLeft = scorecardLeft;
    }
    var head = scorecard.querySelector("thead th.current");
    var column = head ? head.cellIndex : null;
    if (column === currentColumn) return;
    currentColumn = column;
    if (head) scrollIntoColumn(scorecard, head);
  }
  function scrollIntoColumn(scorecard, head) {
    // sideways only, and clear of the category names, which stay at the left edge
    var place = scorecard.getBoundingClientRect();
    var names = scorecard.querySelector("thead th:first-child");
    var left = place.left + (names ? names.getBoundingClientRect().width : 0);
    var right = place.left + scorecard.clientWidth;
    var box = head.getBoundingClientRect();
    if (box.left < left) scorecard.scrollLeft -= left - box.left;
    else if (box.right > right) scorecard.scrollLeft += box.right - right;
  }
  ["htmx:afterSwap", "htmx:afterSettle", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(
    function (name) { document.addEventListener(name, followTurn); }
  );
  document.addEventListener("DOMContentLoaded", followTurn);

  // A form of the table that htmx has not taken over yet would be sent by the browser
  // itself, without the CSRF header (a table swapped in carries no CSRF field: htmx
  // sends the token in a header), and the whole page would become "This page has
  // expired". htmx takes a table over as it swaps it in (defaultSettleDelay 0 in
  // base.html; with htmx's 20 ms a die tapped at once was such a click), and the page's
  // own table when the page is ready (DOMContentLoaded), once every deferred script
  // has come: a press before that (Roll tapped while a script is still on its way) is
  // made again then, by htmx. Any other is dropped. By the time a submission reaches
  // the document, htmx has cancelled the browser's own sending of every form it
  // handles.
  var pageReady = false; // htmx's own listener, added before this script ran, goes first
  var pressedEarly = null;
  document.addEventListener("DOMContentLoaded", function () {
    pageReady = true;
    var early = pressedEarly;
    pressedEarly = null;
    if (!early || !document.contains(early.form)) return;
    if (early.button && early.form.contains(early.button)) early.button.click();
    else early.form.requestSubmit();
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.matches("#table form[hx-post]")) return;
    event.preventDefault();
    if (!pageReady) pressedEarly = { form: form, button: event.submitter };
  });

  // Two dice tapped quickly, or a die and then Roll: the second tap came while the
  // first's answer was on its way. htmx queued it on the old table's form and dropped
  // it once the answer replaced the table (a hold lost), or sent it with the old
  // table's version (a roll refused as from a page out of date). A tap on another
  // button of the table while a move of this page is in flight is made again on the
  // table that move brings, once it is in, one at a time, in order; the same button
  // tapped twice (a double click) is one tap.
  var sentId = null; // the button whose move is in flight
  var waiting = []; // the buttons tapped since, by id
  function moveInFlight() {
    return !!document.querySelector("#table.htmx-request, #table .htmx-request");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#table button[type=submit]");
    if (!button || button.disabled || !button.id || !shown(button)) return;
    if (!moveInFlight()) {
      sentId = button.id;
      return;
    }
    event.preventDefault(); // not sent now: htmx would queue it on this table
    if (button.id !== sentId && waiting.indexOf(button.id) < 0) waiting.push(button.id);
  }, true);
  document.addEventListener("htmx:afterSettle", function () {
    if (moveInFlight()) return;
    sentId = null;
    var id = waiting.shift();
    var button = id && pressable(id);
    if (button) button.click(); // in flight in turn: the rest wait for its table
    else waiting = [];
  });
  ["htmx:sendError", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function () {
      waiting = [];
      sentId = null;
    });
  });

  // Swap 4xx answers too: they carry the table with a message saying what was refused.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status >= 400 && status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
  // The review: the step chosen in the turn-by-turn list is shown in the stepper, which
  // on a phone is thousands of pixels above it. The stepper comes into view, and the
  // list marks the step it shows (also when stepping with Previous and Next); so does
  // a step chosen among the costliest decisions, at the top of the page.
  var stepAsker = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    stepAsker = event.detail.elt;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var stepper = document.getElementById("stepper");
    if (!stepper || !stepper.dataset.step) return;
    document.querySelectorAll(".turns a[aria-current]").forEach(function (link) {
      link.removeAttribute("aria-current");
    });
    var shown = document.querySelector('.turns a[href="?step=' + stepper.dataset.step + '"]');
    if (shown) shown.setAttribute("aria-current", "step");
    var fromList = stepAsker && stepAsker.closest && stepAsker.closest(".turns, .costliest");
    stepAsker = null;
    if (!fromList) return;
    var box = stepper.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 80) {
      stepper.scrollIntoView({ block: "start" });
    }
  });

  // Keys at the table, listed in the help dialog (#keys-help, opened by "?" or its
  // button): R or Space rolls, 1 to 6 hold or release that die, S goes to the
  // scorecard (its first score offered, else the scorecard itself). Each presses the
  // button a click would, so a screen reader hears what a click makes it hear. Never
  // while typing in a field or choosing in a menu, nor with Ctrl, Alt or Cmd, nor behind
  // an open dialog; Space stays the key of the control that has the focus.
  var OWN_KEYS = "input, textarea, select, [contenteditable]";
  var OWN_SPACE = "button, a[href], summary, [role=button], [role=link], [tabindex]:not([tabindex='-1'])";
  function pressable(id) {
    var button = document.getElementById(id);
    return button && !button.disabled && shown(button) && button.closest("#table") ? button : null;
  }
  // A key pressed as a new table comes in (a hold's answer, and at once R) waits for
  // htmx to have settled it (see "submit" above).
  var keyedWhileSettling = null;
  function press(button) {
    if (document.querySelector("#table.htmx-settling, #table .htmx-settling")) {
      keyedWhileSettling = button.id;
    } else {
      button.click();
    }
  }
  document.addEventListener("htmx:afterSettle", function () {
    var id = keyedWhileSettling;
    keyedWhileSettling = null;
    var button = id && pressable(id);
    if (button) button.click();
  });
  function dieOfKey(event) {
    var match = /^(?:Digit|Numpad)([1-6])$/.exec(event.code || "") || /^([1-6])$/.exec(event.key);
    return match ? parseInt(match[1], 10) - 1 : null;
  }
  function toTheScorecard() {
    var choice = Array.prototype.filter.call(
      document.querySelectorAll("#table .score-option, #table .declare"), shown
    )[0];
    var scorecard = document.querySelector("#table .scorecard-scroll");
    var place = choice || scorecard;
    if (!place) return false;
    place.focus();
    place.scrollIntoView({ block: "nearest" });
    return true;
  }
  function openHelp() {
    var help = document.getElementById("keys-help");
    if (!help || help.open) return false;
    help.showModal();
    return true;
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
    var target = event.target;
    if (target.isContentEditable || (target.closest && target.closest(OWN_KEYS))) return;
    if (document.querySelector("dialog[open]")) return;
    var done = false;
    var key = event.key;
    var die = dieOfKey(event);
    if (key === "?") {
      done = openHelp();
    } else if (key === "r" || key === "R" || (key === " " && !(target.closest && target.closest(OWN_SPACE)))) {
      var roll = pressable("roll-button");
      if (roll) press(roll);
      done = !!roll;
    } else if (die !== null) {
      var held = pressable("die-" + die);
      if (held) press(held);
      done = !!held;
    } else if (key === "s" || key === "S") {
      done = toTheScorecard();
    }
    if (done) event.preventDefault();
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-keys-help]")) openHelp();
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-keys-help]").forEach(function (button) {
      button.hidden = false; // of no use without JavaScript
    });
  });

  // The language menu takes the page to the language chosen as it is chosen; its
  // Change button is for pages without JavaScript. A closed menu stepped through with
  // the arrow keys (which tells the page of each step) goes there on Enter, or when
  // the focus leaves it, as Firefox does: not at the first step.
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.language");
    var menu = form && form.querySelector("select");
    if (!menu) return;
    var change = form.querySelector("button[type=submit]");
    if (change) change.hidden = true;
    var shown = menu.value;
    var stepped = false;
    function go() {
      if (menu.value !== shown) form.submit();
    }
    menu.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        go();
      } else if (/^(Arrow|Page|Home|End)/.test(event.key) || event.key.length === 1) {
        stepped = !event.altKey && event.key !== " ";
      }
    });
    menu.addEventListener("pointerdown", function () {
      stepped = false; // a choice in the open list, by pointer
    });
    menu.addEventListener("change", function () {
      if (!stepped) go();
    });
    menu.addEventListener("blur", function () {
      stepped = false;
      go();
    });
  });
})();
