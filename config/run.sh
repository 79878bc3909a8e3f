#!/usr/bin/env bash
# Started by `make run`: the Celery worker and the web server (gunicorn) side by side. Ctrl-C, or
# either process exiting, stops both, so no worker is left behind. Background jobs of a script
# ignore SIGINT, which is why the trap forwards SIGTERM to them itself.
set -euo pipefail
BIN=${BIN:-.venv/bin}
ADDRESS=${ADDRESS:-127.0.0.1:8000}

stop() {
    trap - INT TERM EXIT
    kill $(jobs -p) 2>/dev/null || true
    wait || true
}
trap 'stop; exit 0' INT TERM  # asked to stop: a clean exit
trap stop EXIT                # one of them died: stop the other, keep the failing status

"$BIN/celery" -A config worker --loglevel=info --concurrency=2 &
# The production server, not runserver: runserver queues only 10 connections, and with many
# clients at once it resets the rest. Two processes of eight threads share the SQLite file.
"$BIN/gunicorn" config.wsgi --bind "$ADDRESS" --workers 2 --threads 8 --access-logfile - &

cat <<BANNER

  Sports domino is running at http://$ADDRESS/  (English: http://$ADDRESS/en/)
  Demo logins: organiser / demo-organiser, chief / demo-chief, referee / demo-referee
  Press Ctrl-C to stop the web server and the worker.

BANNER
wait -n
