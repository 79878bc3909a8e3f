"""The embedded Celery broker (no REDIS_URL): kombu's filesystem transport, with each message
written whole before a worker can see it.

kombu's own ``Channel._put`` creates the message file under its final name and then writes it;
a worker listing the folder in between takes the empty file, fails to decode it and stops (seen
under ``make run``, when the beat's sweep and a timer task a move wrote often enough). Here
the file is written under a name the reader skips and renamed into place, which is atomic.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    # kombu's own filesystem Channel adds **kwargs to AbstractChannel._put the same way.
    def _put(self, queue, payload, **kwargs):  # type: ignore[override]
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # The reader takes only "<time>_<uuid>.<queue>.msg": a ".part" suffix hides the file.
        partial = final + ".part"
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
