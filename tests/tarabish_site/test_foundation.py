"""The service's own plumbing: pages answer, health reports, errors share one shape."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tarabish_site.core.models import WorkerHeartbeat
from tarabish_site.core.tasks import worker_heartbeat
from tests.helpers import wait_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url", ["/", "/admin/login/", "/api/v1/", "/api/schema/", "/api/docs/", "/api/redoc/"]
)
def test_public_entry_points_answer(client: Client, url: str) -> None:
    assert client.get(url).status_code == 200


def test_healthz_reports_the_database(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True


def test_healthz_answers_503_when_the_database_is_unreachable(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarabish_site import health

    def broken() -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(health, "_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == {"ok": False}  # no details for anyone
    health.forget()
    client.force_login(User.objects.create_user("ops", is_staff=True))
    assert client.get("/healthz").json()["checks"]["database"] == {
        "ok": False,
        "error": "OSError: connection refused",
    }


def test_unknown_api_path_uses_the_error_shape(client: Client) -> None:
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {
        "message": "There is nothing at /api/v1/no-such-thing/.",
        "code": "not_found",
        "fields": {},
    }


def test_schema_is_openapi_3(client: Client) -> None:
    response = client.get(reverse("schema"), HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_docs_are_served_without_a_cdn(client: Client) -> None:
    html = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/" in html
    assert "cdn" not in html.lower()


def test_heartbeat_task_records_the_worker() -> None:
    worker_heartbeat.delay()
    worker_heartbeat.delay()
    heartbeat = WorkerHeartbeat.objects.get()
    assert heartbeat.beats == 2


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_task_sent_by_the_web_side_runs_in_the_worker_process(celery_worker: str) -> None:
    worker_heartbeat.delay()
    assert wait_for(WorkerHeartbeat.objects.exists), "the worker did not run the task"
    heartbeat = WorkerHeartbeat.objects.get()
    assert heartbeat.hostname.startswith("test-"), heartbeat.hostname
