"""Protocols: the signed documents of a tournament. What they show (:mod:`.sheets`), their HTML
and PDF (:mod:`.rendering`), keys and PAdES signatures (:mod:`.signing`), issuing them
(:mod:`.issuing`), confirmations at the table and PINs (:mod:`.confirmations`), verification
(:mod:`.verification`), the paper before a tour (:mod:`.paper`), and by Celery a whole tour's
protocols or paper, or the tournament's archive (:mod:`.batches`, the workers' :mod:`.batch_jobs`
and :mod:`.tasks`, the ZIPs' contents :mod:`.archive`). The pages are :mod:`.views`."""

from scoring.protocols.batches import (BATCH_STALL_SECONDS, batch_progress, resume_batch, start_archive,
                                       start_paper_batch, start_tour_batch)
from scoring.protocols.confirmations import confirm, confirmation_state, set_pin
from scoring.protocols.issuing import (document_state, documents_of, issue_final_protocol, issue_partition_protocol,
                                       issue_tour_protocol, normalise_code, site_url)
from scoring.protocols.sheets import final_sheet, partition_sheet, required_seats, tour_sheet, tour_snapshot
from scoring.protocols.verification import Status, Verification, describe, verify_code, verify_pdf

__all__ = [
    "BATCH_STALL_SECONDS", "Status", "Verification", "batch_progress", "confirm", "confirmation_state",
    "describe", "document_state", "documents_of", "final_sheet", "issue_final_protocol",
    "issue_partition_protocol", "issue_tour_protocol", "normalise_code", "partition_sheet", "required_seats",
    "resume_batch", "set_pin", "site_url", "start_archive", "start_paper_batch", "start_tour_batch", "tour_sheet",
    "tour_snapshot", "verify_code", "verify_pdf",
]
