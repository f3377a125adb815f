import pytest
from django.urls import reverse


@pytest.mark.django_db
class HomeTests:
    def test_anonymous_goes_to_login(self, client):
        response = client.get(reverse("home"))
        assert response.status_code == 302
        assert response.url == reverse("accounts:login")

    def test_student_goes_to_dashboard(self, client, student):
        client.force_login(student)
        assert client.get(reverse("home")).url == reverse("collector:dashboard")

    def test_instructor_goes_to_the_inbox(self, client, instructor):
        client.force_login(instructor)
        assert client.get(reverse("home")).url == reverse("inbox:inbox")

    def test_staff_goes_to_the_inbox(self, client, staff):
        client.force_login(staff)
        assert client.get(reverse("home")).url == reverse("inbox:inbox")

    def test_crowdworker_goes_to_annotation_tasks(self, client, crowdworker):
        client.force_login(crowdworker)
        response = client.get(reverse("home"), follow=True)
        assert [url for url, _ in response.redirect_chain] == [
            reverse("collector:crowd_home"), reverse("annotation:task_list")
        ]
        assert "Annotation tasks" in response.content.decode()
