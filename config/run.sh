#!/usr/bin/env bash
# Started by `make run`: the Celery workers, the Celery beat and the web server (gunicorn with
# uvicorn's ASGI workers) side by side. Ctrl-C, or any of them exiting, stops them all, so no
# worker is left behind. Background jobs of a script ignore SIGINT, which is why the trap
# forwards SIGTERM to them itself.
set -euo pipefail
BIN=${BIN:-.venv/bin}
ADDRESS=${ADDRESS:-127.0.0.1:8000}

stop() {
    trap - INT TERM EXIT
    kill $(jobs -p) 2>/dev/null || true
    wait || true
}
trap 'stop; exit 0' INT TERM  # asked to stop: a clean exit
trap stop EXIT                # one of them died: stop the others, keep the failing status

# Two workers (config/settings.py, SWEEP_QUEUE): the clocks' (the beat's sweep, on its own queue)
# and the jobs' (PDF batches, clean-ups), so a batch never delays a timeout.
# The clocks' worker and the beat log warnings only: at INFO they write three lines a second (the
# sweep), and every timeout is in the partition's audit trail anyway.
QUEUE=${CELERY_TASK_DEFAULT_QUEUE:-domino}
"$BIN/celery" -A config worker --loglevel=warning --concurrency=2 -n "clock@%h" -Q "$QUEUE.sweep" &
"$BIN/celery" -A config worker --loglevel=info --concurrency=2 -n "jobs@%h" -Q "$QUEUE" &
# The periodic tasks (CELERY_BEAT_SCHEDULE): one beat only, or each would send them. Its schedule
# file is in VAR_DIR (CELERY_BEAT_SCHEDULE_FILENAME).
"$BIN/celery" -A config beat --loglevel=warning &
# The production server, not runserver: runserver queues only 10 connections, and with many
# clients at once it resets the rest. ASGI (config/asgi.py): a live screen holds its connection
# open for hours (scoring/web/sse.py), which an event loop affords and a thread per connection
# does not; the other views run in threads of their own. A live stream never ends by itself:
# a stop waits 5 s for them, then closes them (browsers reconnect). config.server.Worker: uvicorn's
# worker, closing a connection whose request headers do not arrive in REQUEST_READ_TIMEOUT_SECONDS.
"$BIN/gunicorn" config.asgi:application --worker-class config.server.Worker --workers 2 \
    --graceful-timeout 5 --bind "$ADDRESS" --access-logfile - &

# The demo's live tables: simulated players on their "phones" (scoring demo_players).
"$BIN/python" manage.py demo_players &

cat <<BANNER

  Sports domino is running at http://$ADDRESS/  (English: http://$ADDRESS/en/)
  Demo logins: organiser / demo-organiser, chief / demo-chief, referee / demo-referee
  Tables 3 and 4 of the demo's tour 4 are played live by simulated players: watch them.
  Press Ctrl-C to stop the web server, the worker, the beat and the simulated players.

BANNER
wait -n
