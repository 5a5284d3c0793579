"""gunicorn settings for `make run` and production: a bounded number of processes and threads.

Each thread holds at most one Postgres connection (CONN_MAX_AGE keeps it between requests), so the web tier
never holds more than WORKERS × THREADS connections, far below Postgres's default limit of 100. Requests beyond
the threads wait in the listen backlog; a search that cannot start within MATHSEARCH_QUEUE_SECONDS, or finds
MATHSEARCH_SEARCH_QUEUE others waiting, is answered 503 with Retry-After (`searchapp.web.overload`).
"""
import os

import gunicorn.http.message

bind = os.environ.get("MATHSEARCH_ADDR", "127.0.0.1:8000")
workers = int(os.environ.get("MATHSEARCH_WEB_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("MATHSEARCH_WEB_THREADS", "4"))
backlog = 256
timeout = 60
graceful_timeout = 20
max_requests = 5000  # recycle a worker now and then, so no slow leak outlives a day's traffic
max_requests_jitter = 500
accesslog = "-"
# A query may have MAX_QUERY_CHARS (5,000) characters, up to 12 bytes each in a URL (`%F0%9D%91%A5` for 𝑥), and so
# may its words (`context`): about 121 KB of request line at most. The default of 4,094 bytes answered a
# 4,475-character question with gunicorn's own HTML 414, and gunicorn clamps any limit to 8,190 bytes, except 0,
# which its pure-Python parser (used unless gunicorn_h1c is installed) reads as no limit at all: it read a 16 MB line
# whole, in 89 s of a thread's CPU (it copies its buffer at each 8 KB read). So the clamp is raised to our limit: a
# longer line is refused while it arrives, with gunicorn's 414 (HTML; past what any parameter allows).
MAX_REQUEST_LINE_BYTES = 256 * 1024
if not hasattr(gunicorn.http.message, "MAX_REQUEST_LINE"):  # an upgrade moved the clamp: look at it again
    raise RuntimeError("gunicorn.http.message.MAX_REQUEST_LINE is gone; see mathsearch/gunicorn.conf.py")
gunicorn.http.message.MAX_REQUEST_LINE = MAX_REQUEST_LINE_BYTES
limit_request_line = MAX_REQUEST_LINE_BYTES
# The Referer of a page with a long query carries its URL.
limit_request_field_size = 65536
# gunicorn buffers up to fields × field size of headers, copying its buffer at each 8 KB read: 100 fields of 64 KB
# (6.4 MB) took 13.8 s of a thread's CPU before their 431; with 32 (a browser sends about 15) 2 MB took 1.5-2.7 s.
limit_request_fields = 32
wsgi_app = "mathsearch.wsgi:application"
