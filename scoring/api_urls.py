"""REST API of the scoring app, under /api/ (config/urls.py): recording partitions, their history
and protocols."""

from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter(use_regex_path=False)
router.register("partitions", api.PartitionViewSet, basename="api-partition")

urlpatterns = router.urls
