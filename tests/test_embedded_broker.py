"""The embedded Celery broker (config/broker.py): a message is never taken half written."""

import threading
import uuid

import pytest
from kombu import Connection

from config.broker import Transport


def queue_name() -> str:
    """A queue of its own: kombu keeps the queues bound in memory per transport class, so a
    name used by an earlier test would not be bound again in this test's folder."""
    return f"domino-{uuid.uuid4().hex}"


def connection(folder, transport=Transport) -> Connection:
    return Connection(transport=transport, transport_options={"data_folder_in": str(folder),
                                                              "data_folder_out": str(folder),
                                                              "control_folder": str(folder / "control"),
                                                              "polling_interval": 0})


def test_messages_go_through_whole(tmp_path):
    with connection(tmp_path) as conn:
        queue = conn.SimpleQueue(queue_name())
        for n in range(20):
            queue.put({"n": n, "name": "Ёжиков " * n})
        got = []
        for _ in range(20):
            message = queue.get(timeout=1)
            got.append(message.payload["n"])
            message.ack()
        assert sorted(got) == list(range(20))  # in order of the millisecond they were sent
        queue.close()


def test_a_file_still_being_written_is_not_taken(tmp_path):
    with connection(tmp_path) as conn:
        name = queue_name()
        queue = conn.SimpleQueue(name)
        (tmp_path / f"1_00000000-0000-0000-0000-000000000000.{name}.msg.part").write_bytes(b'{"bod')
        with pytest.raises(queue.Empty):
            queue.get(timeout=0.2)
        queue.close()


def test_a_reader_racing_a_writer_decodes_every_message(tmp_path):
    """kombu's own filesystem transport fails this: the reader takes a file created, not yet
    written, and stops on an empty message."""
    count = 60
    with connection(tmp_path) as writer_conn, connection(tmp_path) as reader_conn:
        name = queue_name()
        writer = writer_conn.SimpleQueue(name)
        reader = reader_conn.SimpleQueue(name)

        def write():
            for n in range(count):
                writer.put({"n": n, "padding": "x" * 2_000_000})

        thread = threading.Thread(target=write)
        thread.start()
        got = []
        try:
            while len(got) < count:
                message = reader.get(timeout=10)
                got.append(message.payload["n"])
                message.ack()
        finally:
            thread.join()
        assert sorted(got) == list(range(count))
        writer.close()
        reader.close()
