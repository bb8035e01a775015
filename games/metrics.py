"""What an operator can read of how the site is doing, in Prometheus' format at
``/metrics`` (``yatzy_site/monitoring.py`` serves it and times the requests).

Each server process counts its own: Prometheus scrapes every process and adds them up
(``sum(rate(yatzy_moves_total[5m]))``). Every series a label value can take that is
known in advance exists from the start at 0, so that a rate is there before the first
event. Beside these, the client library's own: ``process_*`` (CPU, memory, open files)
and ``python_*`` (the garbage collector). Listed in docs/deploy.md, "Metrics and logs".
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

from games import readers

# no ``*_created`` series beside each counter (when it was made): twice the lines, for
# what Prometheus does without (it tells a restart by a counter that went back)
disable_created_metrics()

PAGES = ("table", "lobby")  # the page a socket is from: the table's, or the lobby's

MOVES = Counter(
    "yatzy_moves",
    "Moves committed at the tables, by kind (roll, hold, declare, score, skip, handover,"
    " takeback), a computer player's included.",
    ["kind"],
)

OPEN_SOCKETS = Gauge(
    "yatzy_open_sockets",
    "WebSockets open to this process, by the page they are from (table, lobby).",
    ["page"],
)

PUSHES = Counter(
    "yatzy_pushes",
    "Messages sent to browsers over their sockets (a table, or a take-back offer), by"
    " the page the socket is from.",
    ["page"],
)
# each page's series, there from the start at 0
SOCKETS_OPEN = {page: OPEN_SOCKETS.labels(page) for page in PAGES}
PUSHED = {page: PUSHES.labels(page) for page in PAGES}

SERVER_CLOSES = Counter(
    "yatzy_socket_closes",
    "WebSockets the server closed on its own account, by why: slow_reader (its page had"
    " not read what it was sent, in size or in time; close code 4408), too_many (its"
    " browser had as many sockets open as it may; 4409).",
    ["reason"],
)
SOCKETS_CLOSED = {
    readers.CLOSE_SLOW_READER: SERVER_CLOSES.labels("slow_reader"),
    readers.CLOSE_TOO_MANY_SOCKETS: SERVER_CLOSES.labels("too_many"),
}

REQUEST_SECONDS = Histogram(
    "yatzy_http_request_duration_seconds",
    "HTTP requests by the name of their view ('static' for static files, 'unmatched'"
    " for an address that is none of the site's), method and status class (2xx...): from"
    " the site's first middleware to its response (the wait for the server's sync thread"
    " before it is not included).",
    ["view", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

HTTP_ERRORS = Counter(
    "yatzy_http_errors",
    "HTTP responses with an error status, by view, method and status code: 5xx the"
    " site's faults (an exception in a view), 4xx refusals (a stale move's 409, a"
    " missing page's 404).",
    ["view", "method", "status"],
)
