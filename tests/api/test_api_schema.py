"""The OpenAPI schema describes every endpoint, validates, and has no warnings."""

import json

import pytest
from django.core.management import call_command
from django.urls import get_resolver

from scoring import api_urls as scoring_api_urls
from tournaments import api_urls


def test_schema_validates_without_warnings(tmp_path):
    path = tmp_path / "schema.json"
    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", "--file", str(path))
    schema = json.loads(path.read_text())
    paths = schema["paths"]
    # Every route of the API is in the schema.
    for pattern in [*api_urls.urlpatterns, *scoring_api_urls.urlpatterns]:
        route = str(pattern.pattern).replace("<slug:", "{").replace("<int:", "{").replace(">", "}")
        route = "/api/" + route.replace("{pk}", "{id}")  # drf-spectacular names the primary key "id"
        assert route in paths, route
    assert "/api/auth/token/" in paths


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(path))
    return json.loads(path.read_text())


def test_writes_document_their_bodies_and_the_error_form(schema):
    for route, operations in schema["paths"].items():
        if not route.startswith(("/api/tournaments", "/api/players", "/api/partitions")):
            continue
        for method, operation in operations.items():
            if method == "parameters":
                continue
            success = [code for code in operation["responses"] if code.startswith("2")]
            assert success, (method, route)
            if method in ("post", "put", "patch"):
                assert "requestBody" in operation or route.endswith(("/withdraw/", "/publish/", "/resume/", "/tours/{number}/start/")), (method, route)
                for code in ("400", "401", "403"):
                    assert code in operation["responses"], (method, route, code)
            if "{" in route:
                assert "404" in operation["responses"], (method, route)
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["detail"] and set(error["properties"]) == {"detail", "errors"}
    refused = schema["paths"]["/api/tournaments/{slug}/pairs/import/"]["post"]
    assert set(refused["requestBody"]["content"]) == {"multipart/form-data", "text/csv"}
    assert refused["responses"]["400"]["content"]["application/json"]["schema"]["$ref"].endswith("/ImportRefused")


def test_the_schema_is_served(client):
    assert get_resolver().resolve("/api/schema/")
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert "/api/tournaments/{slug}/tours/generate/" in json.loads(response.content)["paths"]


def test_recording_documents_the_conflict_and_the_idempotency_key(schema):
    for what in ("record", "import", "correct-deal"):
        operation = schema["paths"][f"/api/partitions/{{id}}/{what}/"]["post"]
        conflict = operation["responses"]["409"]["content"]["application/json"]["schema"]["$ref"]
        assert conflict.endswith("/Conflict"), what
        assert ("Idempotency-Key", "header") in {(p["name"], p["in"]) for p in operation["parameters"]}, what
    standings = schema["paths"]["/api/tournaments/{slug}/standings/"]["get"]["responses"]["200"]["content"]
    assert set(standings) == {"application/json", "text/csv"}


LISTS = ["/api/tournaments/", "/api/players/", "/api/tournaments/{slug}/roles/", "/api/tournaments/{slug}/pairs/",
         "/api/tournaments/{slug}/entries/", "/api/tournaments/{slug}/tours/", "/api/partitions/{id}/changes/"]


def test_every_list_is_documented_as_pages(schema, settings):
    components = schema["components"]["schemas"]
    for route in LISTS:
        operation = schema["paths"][route]["get"]
        parameters = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
        assert parameters["page"]["schema"]["type"] == "integer", route
        assert parameters["page_size"]["schema"]["maximum"] == settings.API_MAX_PAGE_SIZE, route
        page = components[operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
                          .rsplit("/", 1)[1]]
        assert {"count", "next", "previous", "results"} <= set(page["properties"]), route
        assert page["properties"]["results"]["type"] == "array", route
    # Every other GET answers one thing (standings: one document with its rows).
    lists = {route for route, operations in schema["paths"].items()
             if "get" in operations and "page" in {p["name"] for p in operations["get"].get("parameters", [])}}
    assert lists == set(LISTS)


def test_a_partition_is_answered_in_its_games_shape(schema):
    components = schema["components"]["schemas"]

    def ref(content) -> str:
        return content["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]

    partition = schema["paths"]["/api/partitions/{id}/"]["get"]["responses"]["200"]["content"]
    assert components[ref(partition)]["oneOf"] == [{"$ref": "#/components/schemas/PartitionDetail"},
                                                  {"$ref": "#/components/schemas/SittingDetail"}]
    for what in ("record", "import", "correct-deal"):
        operation = schema["paths"][f"/api/partitions/{{id}}/{what}/"]["post"]
        assert ref(operation["responses"]["200"]["content"]) == ref(partition), what
    sitting = components["SittingDetail"]
    assert {"games", "totals", "next", "units", "game"} <= set(sitting["required"])
    assert not {"pairs", "penalties", "winner", "result"} & set(sitting["properties"])  # no pair totals
    game = components[sitting["properties"]["games"]["items"]["$ref"].rsplit("/", 1)[1]]
    assert {"deals", "scores", "memo", "carry", "game_points"} <= set(game["required"])
    assert {"goats", "winner"} <= set(game["properties"]) - set(game["required"])  # Goat's, Sea Goat's
    record = ref(schema["paths"]["/api/partitions/{id}/record/"]["post"]["requestBody"]["content"])
    actions = set(components[record]["discriminator"]["mapping"])
    assert {"lead", "deal", "goat_deal", "goat_penalty", "goat_time", "goat_annul"} <= actions
    goat_deal = components["GoatDealData"]["properties"]
    assert set(goat_deal) == {"end", "seat", "values", "zero_zero", "lead"}
    assert components["GoatEndEnum"]["enum"] == ["domino", "fish", "redeal"]
    for what, shapes in (("import", {"Import", "ImportSitting"}), ("correct-deal", {"CorrectDeal", "GoatCorrectDeal"})):
        request = ref(schema["paths"][f"/api/partitions/{{id}}/{what}/"]["post"]["requestBody"]["content"])
        assert {one["$ref"].rsplit("/", 1)[1] for one in components[request]["oneOf"]} == shapes, what
