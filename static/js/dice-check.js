// "Check the dice" on the review: this browser loads the game's dice (seed,
// fingerprint, every roll) and recomputes them with Web Cryptography, as
// games/rules/fairness.py does (docs/fairness.md): SHA-256 of the seed gives the
// fingerprint, HMAC-SHA256 keyed by the seed over (turn, roll, position, counter)
// gives each die. No library: what runs is what is here.
(function () {
  "use strict";

  const ACCEPTED = 252; // 6 * 42: a first byte at or above it is drawn again

  function bytesOfHex(hex) {
    if (typeof hex !== "string" || !/^[0-9a-fA-F]{64}$/.test(hex)) {
      throw new Error("not 64 hexadecimal digits");
    }
    const bytes = new Uint8Array(32);
    for (let i = 0; i < 32; i++) {
      bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
    }
    return bytes;
  }

  function hexOf(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) {
      return b.toString(16).padStart(2, "0");
    }).join("");
  }

  async function face(key, turn, rollNumber, position) {
    for (let counter = 0; ; counter++) {
      const message = new DataView(new ArrayBuffer(16));
      message.setUint32(0, turn);
      message.setUint32(4, rollNumber);
      message.setUint32(8, position);
      message.setUint32(12, counter);
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message.buffer));
      if (mac[0] < ACCEPTED) {
        return (mac[0] % 6) + 1;
      }
    }
  }

  // {ok: true, rolls} or {ok: false, problem: a data-* name of the section, values}
  async function check(exported) {
    const seed = bytesOfHex(exported.seed);
    const fingerprint = hexOf(await crypto.subtle.digest("SHA-256", seed));
    if (fingerprint !== String(exported.commitment).toLowerCase()) {
      return { ok: false, problem: "seedMismatch", values: {} };
    }
    const key = await crypto.subtle.importKey(
      "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]
    );
    const rolls = exported.rolls;
    let previous = null;
    for (let i = 0; i < rolls.length; i++) {
      const roll = rolls[i];
      const number = i + 1;
      const follows = roll.roll_number === 1
        ? roll.held.length === 0
        : previous !== null && previous.turn === roll.turn &&
          previous.roll_number === roll.roll_number - 1 &&
          previous.dice.length === roll.dice.length;
      if (!follows) {
        return { ok: false, problem: "outOfOrder", values: { number: number } };
      }
      for (let position = 0; position < roll.dice.length; position++) {
        const expected = roll.held.indexOf(position) >= 0
          ? previous.dice[position]
          : await face(key, roll.turn, roll.roll_number, position);
        if (roll.dice[position] !== expected) {
          return {
            ok: false,
            problem: "rollMismatch",
            values: {
              number: number, turn: roll.turn + 1, roll: roll.roll_number,
              die: position + 1, shown: roll.dice[position], expected: expected,
            },
          };
        }
      }
      previous = roll;
    }
    return { ok: true, rolls: rolls.length };
  }

  function words(section, name, values) {
    return section.dataset[name].replace(/\{(\w+)\}/g, function (whole, field) {
      return field in values ? String(values[field]) : whole;
    });
  }

  function setUp(section) {
    const button = section.querySelector("[data-check-dice]");
    const result = section.querySelector("[data-dice-result]");
    if (!button || !result) {
      return; // the seed is not out yet (a daily challenge's day): nothing to check
    }
    button.hidden = false;
    button.addEventListener("click", async function () {
      result.className = "dice-check-result";
      if (!window.crypto || !crypto.subtle) {
        result.textContent = words(section, "noCrypto", {});
        return;
      }
      result.textContent = words(section, "checking", {});
      button.disabled = true;
      try {
        let exported;
        try {
          const response = await fetch(section.dataset.export, {
            headers: { Accept: "application/json" },
          });
          if (!response.ok) throw new Error(String(response.status));
          exported = await response.json();
        } catch (error) {
          result.textContent = words(section, "unreadable", {});
          result.classList.add("mismatch");
          return;
        }
        let verdict;
        try {
          verdict = await check(exported);
        } catch (error) {
          verdict = { ok: false, problem: "unreadable", values: {} };
        }
        if (verdict.ok) {
          result.textContent = words(section, "allMatch", { count: verdict.rolls });
          result.classList.add("match");
        } else {
          result.textContent = words(section, verdict.problem, verdict.values);
          result.classList.add("mismatch");
        }
      } finally {
        button.disabled = false;
      }
    });
  }

  function start() {
    document.querySelectorAll("[data-dice-check]").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
