"""The Latin spellings a player is found by (tournaments.names), checked against the
published tables: the Russian passport's (ICAO Doc 9303, Order of the Russian foreign ministry
since 2014), BGN/PCGN (1947) and GOST 7.79-2000 System B."""

from types import SimpleNamespace

import pytest

from tournaments.names import SYSTEMS, person_name, query_words, search_key, spellings

# (Cyrillic, ICAO, BGN/PCGN, GOST 7.79 B), as the standards' tables write them.
PUBLISHED = [
    ("Щукин", "Shchukin", "Shchukin", "Shhukin"),
    ("Юлия", "Iuliia", "Yuliya", "Yuliya"),
    ("Соловьёв", "Solovev", "Solov’yёv", "Solov`yov"),  # iuliia writes BGN's ë as the Cyrillic ё
    ("Цыганов", "Tsyganov", "Tsyganov", "Cy`ganov"),
    ("Царёв", "Tsarev", "Tsarёv", "Czaryov"),  # GOST B: cz, but c before e, i, y, j
    ("Циолковский", "Tsiolkovskii", "Tsiolkovskiy", "Ciolkovskij"),
    ("Подъячев", "Podieiachev", "Pod”yachev", "Pod``yachev"),
    ("Хрущёв", "Khrushchev", "Khrushchёv", "Xrushhyov"),
    ("Елизавета", "Elizaveta", "Yelizaveta", "Elizaveta"),  # BGN: ye at the start of a word
    ("Эдуард", "Eduard", "Eduard", "E`duard"),
    ("Илья", "Ilia", "Il’ya", "Il`ya"),
]


@pytest.mark.parametrize(("cyrillic", "icao", "bgn", "gost"), PUBLISHED)
def test_each_system_spells_as_its_published_table(cyrillic, icao, bgn, gost):
    assert SYSTEMS["icao"].translate(cyrillic) == icao
    assert SYSTEMS["bgn_pcgn"].translate(cyrillic) == bgn
    assert SYSTEMS["gost_b"].translate(cyrillic) == gost


def test_the_key_holds_every_spelling_plain_and_the_federation_id():
    key = search_key("Соловьёв", "Аркадий", "RUS-0028").split(" | ")
    # Lower case, ё as е, no marks for ъ and ь, BGN's ë as e; GOST's yo kept beside its е form.
    assert set(key) == {"соловьев аркадий", "solovev arkadii", "solovyev arkadiy", "solovev arkadij",
                        "solovyov arkadij", "rus-0028"}
    assert search_key("Щукина", "Юлия", "") == "shchukina iuliia | shchukina yuliya | shhukina yuliya | щукина юлия"


def test_a_query_is_made_plain_as_the_key():
    assert query_words("  Solov’yëv   ARKADIY ") == ["solovyev", "arkadiy"]
    assert query_words("Семёнов") == ["семенов"]
    assert query_words("Pod``yachev") == ["podyachev"]
    assert query_words("Шишкин Йосиф") == ["шишкин", "йосиф"]  # a Cyrillic й keeps its breve
    assert query_words("a b c d e f g") == ["a", "b", "c", "d", "e"]  # at most five LIKEs
    assert query_words(" ’ ") == []


def test_a_latin_name_is_kept_as_written():
    assert spellings("O'Brien Patrick") == {"obrien patrick"}


def test_a_login_is_written_surname_first_as_a_player_is():
    def login(username, first_name="", last_name=""):
        return SimpleNamespace(first_name=first_name, last_name=last_name, get_username=lambda: username)

    assert person_name(login("kuz", "Анна-Мария", "Кузнецова-Оболенская")) == "Кузнецова-Оболенская Анна-Мария"
    assert person_name(login("kuz", last_name="Кузнецова")) == "Кузнецова"
    assert person_name(login("kuz")) == "kuz"
    assert person_name(None) == ""
