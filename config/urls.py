from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.staticfiles.storage import staticfiles_storage
from django.urls import include, path
from django.views.generic.base import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from scoring.web import sse
from tournaments.views import home
from tournaments.web.auth import TokenView

urlpatterns = [
    # Not part of the DRF API (nor of its schema): a stream of Server-Sent Events (README, "Push").
    # First: a request keeps the list of the patterns tried before its own (ResolverMatch.tried),
    # and a stream is held for hours, a thousand at once in a hall; further down, each kept some
    # forty lists, half the objects of a web worker that the collector walks.
    path("api/tournaments/<slug:slug>/live/events/", sse.live_events, name="live-events"),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("scoring.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script from a URL, not inline (the CSP forbids it).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html"),
         name="api-docs"),
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("i18n/", include("django.conf.urls.i18n")),
    # Browsers and feed readers ask for it at the root whatever the page says.
    path("favicon.ico", RedirectView.as_view(url=staticfiles_storage.url("img/favicon.svg"), permanent=True)),
]

# Pages people read: Russian at the root, English under /en/. The admin is here too because
# LocaleMiddleware serves every unprefixed path in the default language.
urlpatterns += i18n_patterns(
    path("", home, name="home"),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("admin/", admin.site.urls),
    prefix_default_language=False,
)
