"""The protocols' HTML and PDF: one set of templates (``templates/protocols/``) for the print
pages and the PDFs; the PDFs always in Russian, on A4, with the DejaVu fonts shipped in
``static/fonts/`` (never the system's), laid out by WeasyPrint, with the QR code of their
verification link."""

from __future__ import annotations

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
    from weasyprint import HTML
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return HTML(string=html, base_url=FONT_DIR.as_uri() + "/").write_pdf(font_config=fonts)


def render_document(template: str, context: dict[str, Any]) -> bytes:
    """A PDF of its own template (not a protocol sheet: the paper forms, the seating list, the
    crosstable), in Russian, with the shipped fonts and the sheets' style."""
    with translation.override(PDF_LANGUAGE):
        html = render_to_string(template, {**context, "font_dir": FONT_DIR.as_uri(), "sheet_css": SHEET_CSS.as_uri()})
    return render_pdf(html)
