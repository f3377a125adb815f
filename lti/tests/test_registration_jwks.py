"""Registering an LMS (page and API), the tool's key set, key rotation and the Canvas JSON."""
import json

import pytest
from django.core.management import call_command
from django.test import override_settings

from lti.models import Platform, ToolKey
from lti.services import keys

pytestmark = pytest.mark.django_db


def test_register_by_api_and_list(client, instructor, lms):
    client.force_login(instructor)
    response = client.post("/api/lti/platforms/register/", lms.registration(), content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["deployment_ids"] == [lms.deployment_id]
    assert [p["issuer"] for p in client.get("/api/lti/platforms/").json()] == [lms.url]


def test_register_by_api_rejects_students_and_bad_urls(client, student, instructor, lms):
    client.force_login(student)
    assert client.post("/api/lti/platforms/register/", lms.registration(), content_type="application/json").status_code == 403
    client.force_login(instructor)
    bad = {**lms.registration(), "key_set_url": "not a url"}
    response = client.post("/api/lti/platforms/register/", bad, content_type="application/json")
    assert response.status_code == 400 and "key_set_url" in response.json()
    assert not Platform.objects.exists()


def test_register_on_the_settings_page(client, instructor, lms):
    client.force_login(instructor)
    page = client.get("/lti/platforms/")
    assert b"http://testserver/lti/jwks/" in page.content and b"http://testserver/lti/login/" in page.content
    form = {**lms.registration(), "deployment_ids": "deployment-1, deployment-2"}
    assert client.post("/lti/platforms/", form).status_code == 302
    assert Platform.objects.get().deployment_ids == ["deployment-1", "deployment-2"]


def test_private_key_is_encrypted_at_rest():
    key = keys.tool_key_active()
    assert "PRIVATE KEY" not in key.private_pem_encrypted
    assert keys.private_pem(key).startswith("-----BEGIN PRIVATE KEY-----")
    with override_settings(SECRET_KEY="another-secret"), pytest.raises(keys.ToolKeyUnavailable):
        keys.private_pem(key)


def test_jwks_publishes_public_keys_only(client):
    jwks = client.get("/lti/jwks/").json()
    (jwk,) = jwks["keys"]
    assert jwk["kty"] == "RSA" and jwk["alg"] == "RS256" and jwk["use"] == "sig" and "d" not in jwk
    assert jwk["kid"] == ToolKey.objects.get().kid


def test_rotation_keeps_the_previous_key_until_its_tokens_expire(client):
    old = client.get("/lti/jwks/").json()["keys"][0]["kid"]
    call_command("lti_rotate_keys")
    kids = [k["kid"] for k in client.get("/lti/jwks/").json()["keys"]]
    assert len(kids) == 2 and kids[1] == old and kids[0] != old  # new key first, old one still published
    with override_settings(STUMPER_LTI_KEY_OVERLAP_SECONDS=0):
        assert [k["kid"] for k in client.get("/lti/jwks/").json()["keys"]] == kids[:1]
        call_command("lti_rotate_keys")  # deletes keys retired longer ago than the overlap
    assert not ToolKey.objects.filter(kid=old).exists()


def test_canvas_developer_key_json(client):
    config = json.loads(client.get("/lti/config/canvas.json").content)
    assert config["oidc_initiation_url"] == "http://testserver/lti/login/"
    assert config["target_link_uri"] == "http://testserver/lti/launch/"
    assert config["public_jwk_url"] == "http://testserver/lti/jwks/"
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in config["scopes"]
    placements = config["extensions"][0]["settings"]["placements"]
    assert {"assignment_selection", "link_selection"} <= {p["placement"] for p in placements}
