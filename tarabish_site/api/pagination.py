from typing import Any

from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from tarabish_site.api.errors import ValidationFailed


class Pagination(PageNumberPagination):
    """Page-number pagination; clients may ask for up to 200 rows a page. A ``page_size`` that
    is not a whole number from 1 is refused with 400 naming it, not read as the default."""

    page_size_query_param = "page_size"
    max_page_size = 200
    invalid_page_message = "There is no page {page_number}."

    def get_page_size(self, request: Request) -> int | None:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None or raw == "":
            return self.page_size
        text = raw.strip()
        if not text.isascii() or not text.isdigit() or int(text) < 1:
            reason = f"must be a whole number from 1 to {self.max_page_size}, not {raw!r}"
            raise ValidationFailed(
                f"page_size {reason}", fields={self.page_size_query_param: [reason]}
            )
        return min(int(text), self.max_page_size)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                # Larger is answered with the largest page: a clamp, not a refusal, so the
                # schema gives no maximum and says so in words.
                parameter["schema"].update(minimum=1)
                parameter["description"] = (
                    f"Rows a page, from 1; more than {self.max_page_size} is answered with "
                    f"{self.max_page_size}."
                )
        return parameters
