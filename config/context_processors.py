from django.conf import settings
from django.urls import translate_url


def language_switch(request):
    """The current page's URL in the default language, as `next` for the set_language form.

    set_language runs at an unprefixed URL, so in the default language, and there it cannot
    resolve an /en/ path to translate it; a default-language path it translates either way.
    """
    return {"language_switch_next": translate_url(request.get_full_path(), settings.LANGUAGE_CODE)}
