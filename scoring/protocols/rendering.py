"""The protocols' HTML and PDF: one set of templates (``templates/protocols/``) for the print
pages and the PDFs; the PDFs always in Russian, on A4, with the DejaVu fonts shipped in
``static/fonts/`` (never the system's), laid out by WeasyPrint, with the QR code of their
verification link."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import segno
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation


PDF_LANGUAGE = "ru"


FONT_DIR = settings.BASE_DIR / "static" / "fonts"


SHEET_CSS = settings.BASE_DIR / "static" / "css" / "protocol-sheet.css"


def qr_svg(url: str, scale: int = 3) -> str:
    """The QR code of ``url`` as an inline SVG element, ``scale`` units a module."""
    return segno.make(url, error="m").svg_inline(scale=scale, border=2, omitsize=False)


def sheet_template(sheet: dict[str, Any]) -> str:
    """The template of a sheet: its own (a Goat table's), else the one of its kind."""
    return sheet.get("template") or f"protocols/{sheet['kind']}_sheet.html"


def render_html(sheet: dict[str, Any], *, document: dict[str, Any] | None = None, pdf: bool = False,
                request=None) -> str:
    """The sheet as the print page (``pdf=False``) or as the PDF's HTML (``pdf=True``)."""
    template = "protocols/pdf.html" if pdf else "protocols/print.html"
    context = {**sheet, "document": document, "pdf": pdf, "font_dir": FONT_DIR.as_uri(),
               "sheet_css": SHEET_CSS.as_uri(),
               "sheet_template": sheet_template(sheet)}
    return render_to_string(template, context, request=request)


def render_pdf(html: str) -> bytes:
    """HTML to PDF with WeasyPrint; fonts come from ``static/fonts`` through @font-face."""
    return render_joined_pdf([html])


def render_joined_pdf(htmls: list[str], *, laid_out: Callable[[int], None] | None = None) -> bytes:
    """Several HTML documents as one PDF: each laid out in turn (then ``laid_out`` is told its
    index), their pages joined with the first one's metadata. Layouts live in this process only
    (they hold the fonts' C objects), so the parts of one PDF are laid out by one process."""
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()  # loaded once for all the parts
    documents = []
    for index, html in enumerate(htmls):
        documents.append(HTML(string=html, base_url=FONT_DIR.as_uri() + "/").render(font_config=fonts))
        if laid_out is not None:
            laid_out(index)
    return documents[0].copy([page for document in documents for page in document.pages]).write_pdf()


def document_html(template: str, context: dict[str, Any]) -> str:
    """The HTML of a PDF of its own template (not a protocol sheet: the paper forms, the seating
    list, the crosstable), in Russian, with the shipped fonts and the sheets' style."""
    with translation.override(PDF_LANGUAGE):
        return render_to_string(template, {**context, "font_dir": FONT_DIR.as_uri(), "sheet_css": SHEET_CSS.as_uri()})


def render_document(template: str, context: dict[str, Any]) -> bytes:
    """:func:`document_html` as a PDF."""
    return render_pdf(document_html(template, context))
