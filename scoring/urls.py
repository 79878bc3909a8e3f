"""Pages of the scoring app: the referee's score sheet, protocols and their verification."""

from django.urls import path

from scoring.protocols import views as protocols
from scoring.web import live_views as live, sheet_views

tour = "tournaments/<slug:slug>/tours/<int:number>/"
table = tour + "tables/<int:table>/protocol/"

sheet = tour + "tables/<int:table>/sheet/"
live_table = tour + "tables/<int:table>/"
paper = "tournaments/<slug:slug>/manage/tours/<int:number>/paper/"
archive = "tournaments/<slug:slug>/manage/archive/"
# The kinds of a batch (ProtocolBatch.Kind), shown by the same views: a tour's two, the archive.
signed = {"kind": "protocols"}
blank = {"kind": "paper"}
whole = {"kind": "archive"}

urlpatterns = [
    # The referee's score sheet (scoring/web/sheet_views.py).
    path("referee/", sheet_views.my_tables, name="my-tables"),
    path(sheet, sheet_views.sheet, name="sheet"),
    path(sheet + "check-in/", sheet_views.sheet_check_in, name="sheet-check-in"),
    path(sheet + "import/", sheet_views.sheet_import, name="sheet-import"),
    path(sheet + "protocol.json", sheet_views.sheet_export, name="sheet-export"),
    path(sheet + "history/", sheet_views.sheet_history, name="sheet-history"),
    path(sheet + "history/<int:version>/", sheet_views.sheet_version, name="sheet-version"),
    path(sheet + "deals/<int:deal>/correct/", sheet_views.sheet_correct, name="sheet-correct"),
    path(sheet + "games/<int:game>/deals/<int:deal>/correct/", sheet_views.sheet_goat_correct,
         name="sheet-goat-correct"),
    # Live tables (scoring/web/live_views.py): the public page, the player's phone, the referee's tablet.
    path(live_table + "live/", live.live_table, name="live-table"),
    path(live_table + "live/fragment/", live.live_table_fragment, name="live-table-fragment"),
    path(live_table + "play/", live.live_play, name="live-play"),
    path(live_table + "play/fragment/", live.live_play_fragment, name="live-play-fragment"),
    path(live_table + "referee/", live.live_referee, name="live-referee"),
    path(live_table + "referee/fragment/", live.live_referee_fragment, name="live-referee-fragment"),
    path(tour + "start/", live.tour_start, name="tour-start"),
    path(tour + "hall/", live.tour_hall, name="tour-hall"),
    path(tour + "hall/fragment/", live.tour_hall_fragment, name="tour-hall-fragment"),
    path("tournaments/<slug:slug>/manage/tours/<int:number>/chief/", live.tour_chief, name="tour-chief"),
    path("tournaments/<slug:slug>/manage/tours/<int:number>/chief/fragment/", live.tour_chief_fragment,
         name="tour-chief-fragment"),
    path("tournaments/<slug:slug>/manage/tours/<int:number>/play-mode/", live.tour_play_mode, name="tour-play-mode"),
    # Protocols (scoring/protocols/): print views, signed PDFs, confirmation at the table.
    path(table, protocols.partition_protocol, name="partition-protocol"),
    path(table + "pdf/", protocols.partition_protocol_pdf, name="partition-protocol-pdf"),
    path(table + "confirm/", protocols.partition_confirm, name="partition-confirm"),
    path(tour + "protocol/", protocols.tour_protocol, name="tour-protocol"),
    path(tour + "protocol/pdf/", protocols.tour_protocol_pdf, name="tour-protocol-pdf"),
    path(tour + "protocols/", protocols.tour_protocols, name="tour-protocols"),
    path(paper, protocols.tour_paper, name="tour-paper"),
    path(paper + "seating/", protocols.tour_seating_list, name="tour-seating-list"),
    path(tour + "protocols/<int:batch>/", protocols.batch_detail, signed, name="protocol-batch"),
    path(tour + "protocols/<int:batch>/status.json", protocols.batch_status, signed, name="protocol-batch-status"),
    path(tour + "protocols/<int:batch>/zip/", protocols.batch_file, signed, name="protocol-batch-zip"),
    path(paper + "<int:batch>/", protocols.batch_detail, blank, name="paper-batch"),
    path(paper + "<int:batch>/status.json", protocols.batch_status, blank, name="paper-batch-status"),
    path(paper + "<int:batch>/pdf/", protocols.batch_file, blank, name="paper-batch-pdf"),
    # The tournament's archive for the federation: a batch without a tour.
    path(archive, protocols.tournament_archives, name="tournament-archives"),
    path(archive + "<int:batch>/", protocols.batch_detail, whole, name="tournament-archive"),
    path(archive + "<int:batch>/status.json", protocols.batch_status, whole, name="tournament-archive-status"),
    path(archive + "<int:batch>/zip/", protocols.batch_file, whole, name="tournament-archive-zip"),
    path("tournaments/<slug:slug>/protocol/", protocols.final_protocol, name="final-protocol"),
    path("tournaments/<slug:slug>/protocol/pdf/", protocols.final_protocol_pdf, name="final-protocol-pdf"),
    path("tournaments/<slug:slug>/manage/signing/", protocols.signing_key_page, name="signing-key"),
    path("tournaments/<slug:slug>/certificate.pem", protocols.tournament_certificate, name="tournament-certificate"),
    path("players/<int:pk>/pin/", protocols.player_pin, name="player-pin"),
    path("tournaments/<slug:slug>/manage/pins/", protocols.pin_slips, name="pin-slips"),
    path("pin/<str:secret>/", protocols.pin_choose, name="pin-choose"),
    # Public verification; the QR code of a document leads to its short link.
    path("verify/", protocols.verify, name="protocol-verify"),
    path("verify/<str:code>/", protocols.verify_code, name="protocol-verify-code"),
    path("v/<str:code>/", protocols.verify_code, name="protocol-short"),
    path("verify/<str:code>/pdf/", protocols.document_pdf, name="protocol-document-pdf"),
    path("verify/<str:code>/certificate.pem", protocols.document_certificate, name="protocol-document-certificate"),
]
