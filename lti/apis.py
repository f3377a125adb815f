"""Register an LMS by API (POST /api/lti/platforms/) and list the registrations."""
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from lti import selectors
from lti.models import Platform
from lti.services.registration import platform_register


class PlatformOutputSerializer(serializers.ModelSerializer):
    # JSON fields in the model; lists of strings here.
    deployment_ids = serializers.ListField(child=serializers.CharField())
    frame_origins = serializers.ListField(child=serializers.CharField())

    class Meta:
        model = Platform
        fields = ("id", "name", "issuer", "client_id", "deployment_ids", "auth_login_url", "auth_token_url",
                  "auth_audience", "key_set_url", "frame_origins")


class PlatformListApi(APIView):
    def get(self, request):
        if not request.user.is_instructor:
            raise PermissionDenied("Only instructors and admins see LMS registrations.")
        return Response(PlatformOutputSerializer(selectors.platforms_list(), many=True).data)


class PlatformRegisterApi(APIView):
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
        if not request.user.is_instructor:
            raise PermissionDenied("Only instructors and admins can register an LMS.")
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            platform = platform_register(created_by=request.user, **serializer.validated_data)
        except DjangoValidationError as exc:
            raise ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages) from exc
        return Response(PlatformOutputSerializer(platform).data, status=status.HTTP_201_CREATED)
