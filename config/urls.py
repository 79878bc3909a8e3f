from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser

from config.api import ApiSchema
from config.parsers import JSONParser
from tournaments.views import home

urlpatterns = [
    path("api/", include("tournaments.api_urls")),
    path("api/", include("scoring.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    # DRF's view lists its parsers itself: the site's JSON reader instead of DRF's, and forms as
    # DRF's view takes them (two flat fields); the site's schema of error answers.
    path("api/auth/token/", ObtainAuthToken.as_view(parser_classes=[JSONParser, FormParser, MultiPartParser],
                                                    schema=ApiSchema()), name="api-token"),
    path("i18n/", include("django.conf.urls.i18n")),
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
