"""Who sends a signal and how many they may send: a person (the logged-in user, else the browser session), the
address they send from, whether they are a crawler, and the rate limits that hold per person and per address.

Feedback (`actions`) and the looks a results page reports (`impressions`) both count against these limits."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache as shared_cache

from searchapp.client_ip import client_ip
from searchapp.errors import ApiError

RATE_WINDOW_SECONDS = 60
ADDRESS_SHARE = 10
"""One address may send this many sessions' worth of signals: people behind one NAT do not throttle each other,
and a client that drops its cookie to get a fresh session does not get a fresh limit."""
CRAWLER_AGENTS = Path(__file__).with_name("crawler_agents.txt")


class RateLimited(ApiError):
    status = 429

    def __init__(self, limit: int, window: int):
        super().__init__("rate_limited", f"at most {limit} feedback signals per {window} s; try again shortly")
        self.limit, self.window = limit, window


@dataclass(frozen=True)
class Person:
    """Who judges, clicks or looks: the logged-in user wherever they are, else the browser session."""
    user_id: int | None
    session_key: str
    crawler: bool = False
    """Its user agent names a crawler (`is_crawler`): what it sees or sends never counts."""

    @classmethod
    def of(cls, request, lasting: bool = False) -> Person:
        """`lasting`: a visitor without a session is given one first, so that the results shown to them, their
        clicks on them and their next pages are one person's (the results page asks; API calls do not). A crawler
        is given none: it keeps no cookie, and each of its requests would leave a session row behind."""
        crawler = is_crawler(request.META.get("HTTP_USER_AGENT", ""))
        if lasting and not crawler and not request.session.session_key:
            request.session.save()
        user = getattr(request, "user", None)
        return cls(user.pk if user is not None and user.is_authenticated else None, request.session.session_key or "",
                   crawler)

    @property
    def known(self) -> bool:
        """Whether the person can be told apart: a client with neither an account nor a session is no one."""
        return self.user_id is not None or bool(self.session_key)


def is_crawler(user_agent: str) -> bool:
    """Whether a user agent names a crawler, a fetcher or a link previewer (`crawler_agents.txt`)."""
    return bool(_crawler_pattern().search(user_agent))


@cache
def _crawler_pattern() -> re.Pattern[str]:
    lines = (line.strip() for line in CRAWLER_AGENTS.read_text(encoding="utf-8").splitlines())
    return re.compile("|".join(f"(?:{line})" for line in lines if line and not line.startswith("#")), re.IGNORECASE)


def client_address(request) -> str:
    """The client's address (`client_ip`, as the login lockout counts it); a cookieless client is given its session
    here, so its session key exists too."""
    if not request.session.session_key:
        request.session.save()
    return client_ip(request)


def check_rate(client: str, share: int = 1) -> None:
    """Count one signal for `client` in the current window; raise RateLimited past `share` × the configured limit."""
    limit = settings.MATHSEARCH_FEEDBACK_PER_MINUTE * share
    key = f"feedback-rate:{client}"
    # add() only creates the counter, so the window starts at the first signal and expires with it.
    shared_cache.add(key, 0, RATE_WINDOW_SECONDS)
    try:
        count = shared_cache.incr(key)
    except ValueError:  # expired between add() and incr()
        shared_cache.set(key, 1, RATE_WINDOW_SECONDS)
        count = 1
    if count > limit:
        raise RateLimited(limit, RATE_WINDOW_SECONDS)


def check_sender(person: Person, address: str) -> None:
    """Count one signal against the person's session and against their address (RateLimited past either)."""
    check_rate(f"session:{person.session_key}")
    check_rate(f"address:{address}", ADDRESS_SHARE)
