"""REST API of the scoring app, under /api/ (config/urls.py): recording partitions, their history
and protocols."""

from rest_framework.routers import SimpleRouter

from django.urls import path

from scoring.web import api, live_api as live_api

router = SimpleRouter(use_regex_path=False)
router.register("partitions", api.PartitionViewSet, basename="api-partition")
LIVE_ACTIONS = ("move", "draw", "seat", "release", "check-in", "postpone", "start", "hands", "tap", "allowance",
                "deal-over", "result", "lead", "goat-result", "pause", "resume")

urlpatterns = [
    *router.urls,
    # /api/partitions/{id}/live/...: the same partition, played live.
    path("partitions/<int:pk>/live/", live_api.LiveTableViewSet.as_view({"get": "retrieve"}), name="api-live"),
    *[path(f"partitions/<int:pk>/live/{name}/",
           live_api.LiveTableViewSet.as_view({"post": name.replace("-", "_")}), name=f"api-live-{name}")
      for name in LIVE_ACTIONS],
    path("tournaments/<slug:slug>/tours/<int:number>/start/", live_api.StartTourView.as_view(),
         name="api-tour-start"),
]
