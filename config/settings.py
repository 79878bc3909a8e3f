"""Django settings for the domino project.

Everything that differs between machines comes from the environment (README, "Configuration").
With no environment at all the project runs on SQLite and a filesystem Celery broker kept under
var/, so a fresh clone works with `make run` and `make test`.
"""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from django.utils.translation import gettext_lazy as _


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    """A whole number from 1 from the environment, or ``default`` when unset."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise ImproperlyConfigured(f"{name} must be a whole number from 1, not {value!r}")
    return int(value)


def env_float(name: str, default: float) -> float:
    """A number from 0 from the environment, or ``default`` when unset."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0 <= number < 3600:
        raise ImproperlyConfigured(f"{name} must be a number of seconds from 0, not {value!r}")
    return number


BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime state (SQLite database, secret key, broker files, collected static) lives here. It holds
# secrets (the key, the database with the API tokens): created private to its owner, whatever the
# umask; an existing directory is left as its owner set it.
VAR_DIR = Path(os.environ.get("VAR_DIR") or BASE_DIR / "var")
try:
    VAR_DIR.mkdir(mode=0o700, parents=True)
    VAR_DIR.chmod(0o700)  # mkdir's mode is subject to the umask
except FileExistsError:
    pass


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated per machine and kept in var/."""
    if key := os.environ.get("SECRET_KEY"):
        return key
    path = VAR_DIR / "secret_key"
    if path.exists():
        return path.read_text().strip()
    # The web server and the worker may start together: write the key to a private temporary
    # file and link it into place, so exactly one key wins and nobody reads a half-written file.
    fd, tmp = tempfile.mkstemp(dir=VAR_DIR)  # mkstemp creates the file with mode 0600
    try:
        with os.fdopen(fd, "w") as f:
            f.write(get_random_secret_key())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# The site's public address (e.g. https://domino.example.org): protocol PDFs print their
# verification link with it. Unset: the address of the request that issued them.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "tournaments",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "tournaments.web.api.ApiMiddleware",
    # Before CsrfViewMiddleware, the first to read a request's body.
    "tournaments.web.uploads.BodyLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a sign-in refused by django-axes into tournaments.web.auth.lockout_response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "config.context_processors.language_switch",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}", conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # -- SQLite for a web server: the web server's processes and threads and the Celery worker
    # write one file.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        # Wait up to 20 s for another writer's lock (the busy timeout) instead of failing at once.
        "timeout": 20,
        # Take the write lock when a transaction begins: a deferred transaction that reads and
        # then writes cannot wait for the lock (SQLite would deadlock) and fails at once with
        # "database is locked" when another writer holds it.
        "transaction_mode": "IMMEDIATE",
        # Write-ahead log: readers never block the writer nor wait for it. With it, NORMAL
        # syncs at checkpoints only, and a power cut may lose the last commits, never corrupt.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    })
    _sqlite_file = str(DATABASES["default"]["NAME"])
    if _sqlite_file and _sqlite_file != ":memory:" and not _sqlite_file.startswith("file:"):
        # SQLite creates a missing file with the umask's mode (usually world-readable), and its
        # journal files copy the file's mode: create it empty, and private, before SQLite does.
        try:
            _fd = os.open(_sqlite_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.fchmod(_fd, 0o600)  # the mode given to open is subject to the umask
            os.close(_fd)
        except (FileExistsError, FileNotFoundError):  # there already; or no folder: SQLite will say
            pass
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every request runs in a thread of its own, and a connection kept per thread
    # (CONN_MAX_AGE) would be one per thread ever made: the process shares a pool instead.
    # A request waits up to `timeout` seconds for a free connection, then fails.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2, "max_size": env_int("DATABASE_POOL_SIZE", 20), "timeout": 10}
    # Parameters bound by the server, and a statement run 5 times on a connection prepared there:
    # PostgreSQL planned the live move's statements anew each time (the lock's join, 0.3 ms), more
    # than it spent running them (README, Performance). DATABASE_PREPARED=0 turns it off for a
    # pooler that cannot keep a connection's prepared statements (PgBouncer before 1.21).
    if env_bool("DATABASE_PREPARED", True):
        DATABASES["default"]["OPTIONS"].update(server_side_binding=True, prepare_threshold=5)
else:
    DATABASES["default"]["CONN_MAX_AGE"] = 60
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# PINs (a phone taking a seat, a protocol confirmed on the referee's device; tournaments.pins):
# this many wrong PINs for a player from one device, or from one address, lock his PIN there for
# this many minutes; from PIN_PLAYER_ALERT_LIMIT wrong PINs for him within an hour, from anywhere,
# his tries are taken one per PIN_SLOW_SECONDS and his referees alerted.
PIN_FAILURE_LIMIT = env_int("PIN_FAILURE_LIMIT", 5)
PIN_LOCK_MINUTES = env_int("PIN_LOCK_MINUTES", 15)
PIN_PLAYER_ALERT_LIMIT = env_int("PIN_PLAYER_ALERT_LIMIT", 20)
PIN_SLOW_SECONDS = env_int("PIN_SLOW_SECONDS", 30)
# A PIN slip's link, where the player chooses his own PIN, works once within this many days.
PIN_LINK_DAYS = env_int("PIN_LINK_DAYS", 30)

# Wrong passwords (django-axes; config/auth.py): this many failed sign-ins of one login from one
# address lock that login out from that address for this many minutes, the right password
# included. Counted in the database (every process sees the same), by login and address together
# so nobody can lock a user out from elsewhere; a successful sign-in starts the count again.
AUTHENTICATION_BACKENDS = [
    "tournaments.web.auth.LoginLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCK_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A lock lasts the cool-off from the last counted failure: trying during it does not extend it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "tournaments.web.auth.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
# Only the failures are kept (AccessAttempt, shown in the admin); no row for every successful login.
AXES_DISABLE_ACCESS_LOG = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-tournaments"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Moscow"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# WhiteNoise warns on every start when its root is missing; before collectstatic it is empty.
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Not the manifest storage: it needs collectstatic before any page renders, tests included.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

REDIS_URL = os.environ.get("REDIS_URL") or None
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        # A task taken by a worker that died (acks are late) goes back to the queue after this
        # long. Every task of the project is short and idempotent, and none waits for a countdown
        # this long (longer clocks are the periodic sweep's), so it need not be Celery's hour.
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 120),
        # Look for such tasks every 10 s, not every 100 s (interval x throttle).
        "unacked_restore_interval": 10,
        "unacked_restore_throttle": 1,
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    # No services needed: messages and results are files that every local process can see.
    _celery_dir = VAR_DIR / "celery"
    for _sub in ("messages", "control", "results"):
        (_celery_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"  # kombu's, each message written whole
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Producer and worker read and write one folder.
        "data_folder_in": str(_celery_dir / "messages"),
        "data_folder_out": str(_celery_dir / "messages"),
        "control_folder": str(_celery_dir / "control"),
        # A worker lists the folder this often when it is idle (kombu: every second): the sweep's
        # round, sent each second, starts within a quarter of a second.
        "polling_interval": 0.25,
    }
    CELERY_RESULT_BACKEND = f"file://{_celery_dir / 'results'}"
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# One result backend a process, not one a thread: a request's sync code runs in a thread of its
# own under ASGI, and each made its backend (and its Redis connections) anew: 4 % of a live move.
CELERY_RESULT_BACKEND_THREAD_SAFE = True
# Celery's Django fixup closes a prefork worker's database connections before and after every
# task, and with the connection pool it closes the whole pool: each clock task then opened a new
# PostgreSQL connection (a backend started, authenticated and configured): 88 a second at 250
# live tables. With this it closes them every this many tasks, and a task reuses its process's
# connection meanwhile (Celery's documented knob for it).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 200)
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE") or "domino"
# The clocks' sweep has a queue of its own, taken by a worker of its own (config/run.sh): a batch
# of PDFs never delays a timeout, and a busy jobs' worker is not taken for a dead clock service
# (CLOCK_OUTAGE_SECONDS).
SWEEP_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.sweep"
CELERY_TASK_ROUTES = {"scoring.live.sweep": {"queue": SWEEP_QUEUE}}
# Task modules inside the apps' packages (autodiscovery finds only <app>.tasks).
CELERY_IMPORTS = ("scoring.protocols.tasks", "scoring.push.tasks", "scoring.live.tasks", "tournaments.rating.tasks")
# A task is acknowledged after it ran, and a worker holds one at a time: a worker that dies
# mid-task leaves it to another worker instead of losing it.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Periodic tasks: ONE `celery beat` process sends them (config/run.sh); it keeps when each ran
# last in this file.
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The beat sends the clocks' sweep every CLOCK_SWEEP_SECONDS; a round looks for the deadlines that
# have passed CLOCK_SWEEP_PASSES times, evenly spread over it, so a timeout is recorded within about
# CLOCK_SWEEP_SECONDS / CLOCK_SWEEP_PASSES after its deadline, with one task a second (README, "Live
# tables").
CLOCK_SWEEP_SECONDS = 1.0
CLOCK_SWEEP_PASSES = env_int("CLOCK_SWEEP_PASSES", 4)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "record the live clocks that ran out": {"task": "scoring.live.sweep", "schedule": CLOCK_SWEEP_SECONDS,
                                            "options": {"expires": 5}},
    "forget old live events": {"task": "scoring.push.tasks.purge_events", "schedule": timedelta(hours=1)},
}
# Live screens (scoring/live/): events older than this are forgotten; a screen that missed more
# reloads.
LIVE_EVENTS_KEPT_HOURS = env_int("LIVE_EVENTS_KEPT_HOURS", 48)
# What one stream may cost (README, "Push"): a screen further back than this many events gets a
# reset with the tables' state instead of a replay; a process reads this many replays at once;
# one client address holds this many streams open (a hall's phones may share one address).
LIVE_REPLAY_MAX_EVENTS = env_int("LIVE_REPLAY_MAX_EVENTS", 500)
LIVE_REPLAY_CONCURRENCY = env_int("LIVE_REPLAY_CONCURRENCY", 4)
LIVE_STREAMS_PER_ADDRESS = env_int("LIVE_STREAMS_PER_ADDRESS", 500)

# -- live tables (README, "Live tables") --------------------------------------------------------
# Network delay not charged to a move: a move is charged from its turn's start to its arrival,
# less this and the pauses.
LIVE_MOVE_GRACE_SECONDS = env_float("LIVE_MOVE_GRACE_SECONDS", 0.5)
# The sweep silent longer than this (the whole clock service down): running clocks are then
# extended by the gap rather than charged for it.
CLOCK_OUTAGE_SECONDS = env_int("CLOCK_OUTAGE_SECONDS", 30)

# -- limits on what a request can make the site read or do (README, "Limits") ---------------------
# Every one is refused with a clear error before the work starts, never with a 500.
# JSON nested deeper than this is refused (the API's bodies, a pasted or uploaded protocol).
JSON_MAX_DEPTH = env_int("JSON_MAX_DEPTH", 32)
# The largest file any page takes: a protocol PDF on /verify/. Every upload form declares its own
# limit up to this (tournaments.web.uploads.upload_limit); a request body over its page's limit is a 413
# before it is read (under ASGI, counted as it arrives: chunked bodies too). Other requests:
# Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MiB), applied to the whole body. The default is the largest document the system issues with a wide margin: the tour
# protocol of 512 tables (1,024 pairs) weighs 507 KiB (README, Protocols; bench/protocols.py --sizes).
UPLOAD_MAX_SIZE = env_int("UPLOAD_MAX_SIZE", 2 * 1024 * 1024)
# Verifying an uploaded PDF (scoring.protocols.pdfcheck): its signatures are read in a child
# process limited to this CPU time, address space and wall time; at most VERIFY_CONCURRENCY
# children at once in each web process (a further upload waits up to VERIFY_SECONDS for one);
# at most VERIFY_PER_ADDRESS_PER_MINUTE files from one address a minute (counted in the database).
VERIFY_CPU_SECONDS = env_int("VERIFY_CPU_SECONDS", 5)
VERIFY_MEMORY_MB = env_int("VERIFY_MEMORY_MB", 256)
VERIFY_SECONDS = env_int("VERIFY_SECONDS", 10)
VERIFY_CONCURRENCY = env_int("VERIFY_CONCURRENCY", 2)
VERIFY_PER_ADDRESS_PER_MINUTE = env_int("VERIFY_PER_ADDRESS_PER_MINUTE", 10)
# A request must arrive whole within this: its headers (config.server, uvicorn's protocol under
# gunicorn), then its body (tournaments.web.uploads.BoundedBodies). A connection that trickles
# its request in byte by byte would otherwise be held open for ever.
REQUEST_READ_TIMEOUT_SECONDS = env_float("REQUEST_READ_TIMEOUT_SECONDS", 10.0)
# A CSV file of pairs: its size and its lines of pairs. The import holds the tournament's row
# lock while it registers them, some 12 ms a pair on PostgreSQL: 1,000 pairs take 12 s.
CSV_IMPORT_MAX_SIZE = env_int("CSV_IMPORT_MAX_SIZE", 1024 * 1024)
CSV_IMPORT_MAX_LINES = env_int("CSV_IMPORT_MAX_LINES", 1000)
# Deals in one partition, recorded or imported. A real one has a few dozen at most (40 to 50
# minutes of play); the regulations' fixed-deals format allows up to 400.
PARTITION_MAX_DEALS = env_int("PARTITION_MAX_DEALS", 500)

REST_FRAMEWORK = {
    # Token first: a client that sent no credentials gets 401 with "WWW-Authenticate: Token".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "EXCEPTION_HANDLER": "tournaments.web.api.exception_handler",
    # JSON only, through the site's one JSON reader (depth, NUL). A form's flat fields cannot say
    # what the nested bodies mean (regulations, a pair's players); the CSV import takes its file
    # as multipart besides.
    "DEFAULT_PARSER_CLASSES": ["tournaments.web.parsers.JSONParser"],
    # JSON only, errors included; people browse the API at /api/docs/.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
# -- API pagination: every list of the API is a page {"count", "next", "previous", "results"}.
API_PAGE_SIZE = 100  # items in a page when the client does not ask (?page_size=N)
API_MAX_PAGE_SIZE = 1000  # the most a client may ask for in one page
REST_FRAMEWORK["DEFAULT_PAGINATION_CLASS"] = "tournaments.web.pagination.Pagination"

SPECTACULAR_SETTINGS = {
    "TITLE": "Sports domino tournaments API",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Three models have a "status": each its own enum in the schema.
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "TourStatusEnum": "tournaments.models.Tour.Status",
        "PartitionStatusEnum": "scoring.models.Partition.Status",
        # Penalties and restarted deals each have their "code".
        "PenaltyCodeEnum": "scoring.engine.rules.PENALTY_CODES",
        "RestartCodeEnum": "scoring.engine.rules.RESTART_CODES",
        # The referee's clock: the allowance of a move (single, several, fish, pass).
        "MoveAllowanceEnum": "scoring.live.play.ALLOWANCES",
        "DealEndEnum": "scoring.engine.rules.DEAL_ENDS",
        "GoatEndEnum": "scoring.web.serializers.GOAT_ENDS",
        "LineEndEnum": "scoring.web.live_api.ENDS",
        "RoleKindEnum": "tournaments.models.Role.Kind",
    },
}

# -- Security headers of every answer.
# Content-Security-Policy (django-csp 4): this site's own files only. No inline script, style or
# event handler anywhere (templates link static files), so nothing needs 'unsafe-inline'.
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                  "csp.middleware.CSPMiddleware")
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        # Swagger UI's stylesheet draws its icons as data: URLs.
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],  # no page is framed, as X-Frame-Options says too
    },
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
# Other sites get no address of ours; our own pages get the referrer (Django's CSRF check over
# HTTPS reads it when a browser sends no Origin).
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Only for a real HTTPS deployment: over plain http on localhost these would lock the user out.
if not DEBUG and env_bool("HTTPS"):
    # The TLS terminating proxy tells Django the original scheme.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    # The host's own subdomains too (a site on a host of its own: README, Production). Not
    # "preload": that is the domain owner's commitment to the browsers' list, not the app's.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
