"""A flood of replaying live streams (issue 18, item 2) against a running server, while another
client times ordinary requests.

Run by hand against a server started as in production (README, Production; e.g.
``LIVE_STREAMS_PER_ADDRESS=100000 gunicorn config.asgi:application --worker-class
config.server.Worker --workers 2``) with a tournament that has events (``make run``'s
demo has):

    .venv/bin/python bench/stream_flood.py --url http://127.0.0.1:8000 --slug demo \\
        [--streams 2000] [--seconds 60] [--after 0] [--probe /api/tournaments/]

``--streams`` connections, all from this host, each asks for the events after ``--after`` (0:
from the beginning of the day), reads what the server sends for up to a second (the replay, or the
reset past ``LIVE_REPLAY_MAX_EVENTS``), closes and asks again, for ``--seconds``. Meanwhile one
probe asks ``--probe`` every 0.2 s. It prints the answers' statuses, the bytes a replay brought
(median, max), and the probe's latency (median, p99, max) and failures: with the bounds, the
probe stays answered and a replay weighs at most the tables' state. Standard library only; the
traffic goes to ``--url`` only.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import urllib.parse
from collections import Counter


async def _request(host: str, port: int, path: str, read_for: float) -> tuple[int, int]:
    """GET ``path``; (status, body bytes read within ``read_for`` seconds)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
                     f"Connection: close\r\n\r\n".encode())
        await writer.drain()
        status_line = await reader.readline()
        status = int(status_line.split()[1]) if status_line else 0
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # the headers
        size = 0
        deadline = time.monotonic() + read_for
        while (left := deadline - time.monotonic()) > 0:
            try:
                chunk = await asyncio.wait_for(reader.read(65536), left)
            except TimeoutError:
                break
            if not chunk:
                break
            size += len(chunk)
        return status, size
    finally:
        writer.close()


async def _flooder(host: str, port: int, path: str, until: float, statuses: Counter[int], sizes: list[int]) -> None:
    while time.monotonic() < until:
        try:
            status, size = await _request(host, port, path, 1.0)
        except OSError:
            status, size = 0, 0
        statuses[status] += 1
        if status == 200:
            sizes.append(size)


async def _probe(host: str, port: int, path: str, until: float, latencies: list[float], failures: Counter[str]) -> None:
    while time.monotonic() < until:
        started = time.monotonic()
        try:
            status, _size = await asyncio.wait_for(_request(host, port, path, 30.0), 60)
        except (OSError, TimeoutError) as error:
            failures[type(error).__name__] += 1
        else:
            if status != 200:
                failures[str(status)] += 1
            latencies.append(time.monotonic() - started)
        await asyncio.sleep(0.2)


def _quantile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def main(args: argparse.Namespace) -> None:
    url = urllib.parse.urlsplit(args.url)
    host, port = url.hostname or "127.0.0.1", url.port or 80
    stream_path = f"/api/tournaments/{args.slug}/live/events/?after={args.after}"
    until = time.monotonic() + args.seconds
    statuses: Counter[int] = Counter()
    sizes: list[int] = []
    latencies: list[float] = []
    failures: Counter[str] = Counter()
    await asyncio.gather(_probe(host, port, args.probe, until, latencies, failures),
                         *(_flooder(host, port, stream_path, until, statuses, sizes) for _ in range(args.streams)))
    print(f"streams: {args.streams} for {args.seconds} s, after={args.after}; answers by status: {dict(statuses)}")
    if sizes:
        print(f"bytes a stream read in its first second: median {statistics.median(sizes):,.0f}, max {max(sizes):,}")
    print(f"probe {args.probe}: {len(latencies)} answered, median {statistics.median(latencies or [0]) * 1000:.0f} ms, "
          f"p99 {_quantile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies or [0]) * 1000:.0f} ms; "
          f"failures {dict(failures)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--slug", default="demo")
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--after", type=int, default=0)
    parser.add_argument("--probe", default="/api/tournaments/")
    asyncio.run(main(parser.parse_args()))
