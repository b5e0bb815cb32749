"""The report forms (issue 45): a person from their profile, a message from the chat. A
message's page also offers to block its author (the one place a chat line leads to), and both
forms lead back to the chat the message was said in.

A message is there only for whoever could read it (``reports.may_read``): to anyone else its
report form answers as a message that does not exist, so it cannot be used to read a room.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.blocks import is_blocked
from accounts.models import User
from accounts.selectors import public_profile
from talk import reports
from talk.models import Message
from web.http import AuthenticatedHttpRequest


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=gettext_lazy("Why are you reporting this?"), choices=reports.REASONS, widget=forms.RadioSelect
    )
    details = forms.CharField(
        label=gettext_lazy("Anything staff should know (optional)"),
        required=False,
        max_length=reports.DETAILS_LONGEST,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    next = forms.CharField(required=False, widget=forms.HiddenInput)


@login_required
def report_person(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    person = public_profile(username=username)
    return _report(request, person, None)


@login_required
def report_message(request: AuthenticatedHttpRequest, message_id: int) -> HttpResponse:
    message = Message.objects.select_related("user", "table").filter(pk=message_id).first()
    if message is None or not reports.may_read(message, request.user, request.session):
        raise Http404("No such message.")
    return _report(request, message.user, message)


def _said_in(message: Message) -> str:
    """The page of the chat ``message`` was said in: where its report and block lead back to."""
    if message.table_id is not None:
        return reverse("table", args=[message.table_id])
    return reverse("tournament", args=[message.tournament_id])


def _report(request: AuthenticatedHttpRequest, person: User, message: Message | None) -> HttpResponse:
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    asked = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(asked, {request.get_host()}, request.is_secure()):
        asked = ""  # drawn as a link on the page: only an address on this site
    initial = {"next": asked or (_said_in(message) if message else "")}
    form: ReportForm | None = ReportForm(request.POST if request.method == "POST" else None, initial=initial)
    status = 200
    if request.user.pk == person.pk:
        form = None  # one's own profile or message: nothing to report
    elif request.method == "POST" and form is not None:
        if form.is_valid():
            try:
                reports.report(
                    reporter=request.user,
                    reported=person,
                    message=message,
                    reason=form.cleaned_data["reason"],
                    details=form.cleaned_data["details"],
                )
            except reports.ReportError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("Thank you: staff will look at your report."))
                return _back(request, form.cleaned_data["next"], person)
        status = 400
    context = {
        "form": form,
        "person": person,
        "message": message,
        "back": initial["next"],
        "blocking": is_blocked(by=request.user, whom=person),
    }
    return render(request, "talk/report.html", context, status=status)


def _back(request: HttpRequest, target: str, person: User) -> HttpResponse:
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return HttpResponseRedirect(target)
    return redirect(person)
