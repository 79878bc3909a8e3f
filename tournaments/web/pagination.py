"""The pages of every list of the API (DEFAULT_PAGINATION_CLASS).

A module of its own: DRF imports it while rest_framework.generics is being imported, so it may
import nothing that imports that.
"""

from django.conf import settings
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """``?page=N`` (from 1) and ``?page_size=N`` up to the maximum; the answer is
    ``{"count", "next", "previous", "results"}``. The sizes are settings (API_PAGE_SIZE,
    API_MAX_PAGE_SIZE), read per request."""

    page_size_query_param = "page_size"

    @property
    def page_size(self) -> int:  # type: ignore[override]
        return settings.API_PAGE_SIZE

    @property
    def max_page_size(self) -> int:  # type: ignore[override]
        return settings.API_MAX_PAGE_SIZE

    def get_schema_operation_parameters(self, view) -> list[dict]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = (f"Items in a page: {self.page_size} unless asked, "
                                            f"at most {self.max_page_size}.")
                parameter["schema"].update(minimum=1, maximum=self.max_page_size)
        return parameters
