"""LMS registrations by API: register, list (your own), change, remove."""
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.apis import ApiErrorsMixin, Conflict
from lti import selectors
from lti.models import Platform
from lti.services.registration import PlatformTaken, platform_delete, platform_register, platform_update


class PlatformOutputSerializer(serializers.ModelSerializer):
    # JSON fields in the model; lists of strings here.
    deployment_ids = serializers.ListField(child=serializers.CharField())
    frame_origins = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = Platform
        fields = ("id", "name", "issuer", "client_id", "deployment_ids", "auth_login_url", "auth_token_url",
                  "auth_audience", "key_set_url", "frame_origins")


class PlatformListApi(ApiErrorsMixin, APIView):
    """Your own registrations."""

    def get(self, request):
        selectors.lms_manager_check(request.user)
        return Response(PlatformOutputSerializer(selectors.platforms_of(user=request.user), many=True).data)


class PlatformRegisterApi(ApiErrorsMixin, APIView):
    """Register an LMS (201), or update yours with the same issuer + client id; 409 if that pair is another
    account's."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        issuer = serializers.URLField(max_length=500)
        client_id = serializers.CharField(max_length=255)
        deployment_ids = serializers.ListField(child=serializers.CharField(max_length=255), min_length=1)
        auth_login_url = serializers.URLField(max_length=500)
        auth_token_url = serializers.URLField(max_length=500)
        key_set_url = serializers.URLField(max_length=500)
        auth_audience = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)
        frame_origins = serializers.ListField(child=serializers.CharField(max_length=300), required=False, default=list)

    def post(self, request):
        selectors.lms_manager_check(request.user)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            platform = platform_register(created_by=request.user, **serializer.validated_data)
        except PlatformTaken as exc:
            raise Conflict(exc.message) from exc
        return Response(PlatformOutputSerializer(platform).data, status=status.HTTP_201_CREATED)


class PlatformUpdateApi(ApiErrorsMixin, APIView):
    """Change the given fields of your registration (issuer and client id stay)."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=200, required=False)
        deployment_ids = serializers.ListField(child=serializers.CharField(max_length=255), min_length=1,
                                               required=False)
        auth_login_url = serializers.URLField(max_length=500, required=False)
        auth_token_url = serializers.URLField(max_length=500, required=False)
        key_set_url = serializers.URLField(max_length=500, required=False)
        auth_audience = serializers.CharField(max_length=500, required=False, allow_blank=True)
        frame_origins = serializers.ListField(child=serializers.CharField(max_length=300), required=False)

    def post(self, request, platform_id: int):
        platform = selectors.platform_of_manager(user=request.user, platform_id=platform_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        platform = platform_update(user=request.user, platform=platform, **serializer.validated_data)
        return Response(PlatformOutputSerializer(platform).data)


class PlatformDeleteApi(ApiErrorsMixin, APIView):
    """Remove your registration, with the LMS courses, links, rosters and grade records its launches made."""

    def post(self, request, platform_id: int):
        platform_delete(user=request.user, platform=selectors.platform_of_manager(user=request.user, platform_id=platform_id))
        return Response(status=status.HTTP_204_NO_CONTENT)
