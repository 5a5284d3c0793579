"""gunicorn settings for `make run` and production: a bounded number of processes and threads.

Each thread holds at most one Postgres connection (CONN_MAX_AGE keeps it between requests), so the web tier
never holds more than WORKERS × THREADS connections, far below Postgres's default limit of 100. Requests beyond
the threads wait in the listen backlog; a search that cannot start within MATHSEARCH_QUEUE_SECONDS, or finds
MATHSEARCH_SEARCH_QUEUE others waiting, is answered 503 with Retry-After (`searchapp.web.overload`).
"""
import os

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
# A query may have MAX_QUERY_CHARS (5,000) characters, up to 9 bytes each in a URL (`%E2%88%91` for ∑): the default
# request line of 4,094 bytes answered a 4,475-character question with gunicorn's own HTML 414. 0 lets gunicorn read
# a line up to 1 MB; the views answer anything over the query limit with their own error.
limit_request_line = 0
# The Referer of a page with a long query carries its URL.
limit_request_field_size = 65536
wsgi_app = "mathsearch.wsgi:application"
