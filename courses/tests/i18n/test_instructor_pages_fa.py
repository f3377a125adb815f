"""The course pages an instructor uses speak Persian to a Persian user (issue 30): the course list,
the teaching staff page (with the role names, what each role may do and the add form), and the
sign-up page; in English they keep their English words."""
import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def persian_page(client, user, url: str) -> str:
    client.cookies["django_language"] = "fa"
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="fa" dir="rtl">' in page
    return page


def test_the_course_list_in_persian(client, instructor, course):
    page = persian_page(client, instructor, reverse("courses:course_list"))
    for persian in ("<h1>درس‌های شما</h1>", "کد عضویت", "دانشجویان", "ساختن درس", "نام درس"):
        assert persian in page
    for english in ("Your courses", "Join code", "Create a course", "Create course", "Course name"):
        assert english not in page


def test_the_teaching_staff_page_in_persian(client, instructor, course):
    page = persian_page(client, instructor, reverse("courses:course_staff", args=[course.pk]))
    for persian in ("<h1>کادر آموزشی</h1>", "چه کسی چه کاری می‌تواند بکند", "افزودن به کادر آموزشی",
                    "مدرس همکار", "دستیار آموزشی", "نام کاربری یا ایمیل", "ساختن پیوند دعوت مدرس"):
        assert persian in page
    for english in ("Teaching staff", "Who may do what", "Add to the teaching staff", "Co-instructor",
                    "Teaching assistant", "Username or e-mail", "Everything a co-instructor may do"):
        assert english not in page


def test_a_refused_staff_form_says_why_in_persian(client, instructor, course):
    client.cookies["django_language"] = "fa"
    client.force_login(instructor)
    page = client.post(reverse("courses:course_staff", args=[course.pk]), {"who": "nobody", "role": "ta"})
    html = page.content.decode()
    assert "کسی افزوده نشد" in html and "هیچ حسابی این نام کاربری یا ایمیل را ندارد" in html
    assert "No account has this username" not in html


def test_the_student_sign_up_page_in_persian(client):
    page = persian_page(client, None, reverse("courses:signup"))
    assert "ثبت‌نام به عنوان دانشجو" in page and "Sign up as a student" not in page


def test_in_english_the_pages_keep_their_english_words(client, instructor, course):
    client.force_login(instructor)
    page = client.get(reverse("courses:course_staff", args=[course.pk])).content.decode()
    assert "<h1>Teaching staff</h1>" in page and "Who may do what" in page and "Teaching assistant" in page
