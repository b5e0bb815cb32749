"""The moderators' side of issue 45 in Django's admin.

Reports: a queue of the open ones, oldest first; each opens on a review page (the message in
its room's context, the table, the replay, the person's record with staff) whose buttons are
the queue's actions. Every action asks for a reason (and a mute for its length) on a page of
its own before it is taken, and is logged as a ``StaffAction`` (``talk.moderation``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import StaffAction, User
from talk import moderation
from talk.models import BannedWord, Message, Mute, Report


class StepForm(forms.Form):
    """The intermediate page's form: why (always), and for a mute, how long."""

    reason = forms.CharField(
        label=gettext_lazy("Reason (kept in the staff log)"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
    )
    seconds = forms.TypedChoiceField(
        label=gettext_lazy("For how long"), choices=moderation.MUTE_LENGTHS, coerce=int, initial=86400
    )

    def __init__(self, *args: Any, timed: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not timed:
            del self.fields["seconds"]


def reason_step(
    model_admin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    action: str,
    title: str,
    take: Callable[[User, str, int], str],
    timed: bool = False,
) -> TemplateResponse | None:
    """An action's intermediate page: its form until a reason is given, then ``take`` (given the
    member of staff, the reason and the length), whose words are shown back on the list."""
    form = StepForm(request.POST if "apply" in request.POST else None, timed=timed)
    if form.is_valid():
        staff = request.user
        assert isinstance(staff, User)
        said = take(staff, form.cleaned_data["reason"].strip(), form.cleaned_data.get("seconds") or 0)
        model_admin.message_user(request, said, messages.SUCCESS)
        return None
    opts = model_admin.model._meta
    return TemplateResponse(
        request,
        "admin/talk/step.html",
        {
            **model_admin.admin_site.each_context(request),
            "title": title,
            "opts": opts,
            "form": form,
            "objects": [(obj.pk, getattr(model_admin, "describe", str)(obj)) for obj in queryset],
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "changelist": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        },
    )


class QueueFilter(admin.SimpleListFilter):
    """The open reports unless staff ask for others: the queue is what the page opens on."""

    title = gettext_lazy("status")
    parameter_name = "queue"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]) -> list[tuple[str, str]]:
        return [
            ("open", _("Open")),
            ("actioned", _("Acted on")),
            ("dismissed", _("Dismissed")),
            ("all", _("All")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        chosen = self.value() or "open"
        return queryset if chosen == "all" else queryset.filter(status=chosen)

    def choices(self, changelist: Any) -> Iterator[Any]:
        chosen = self.value() or "open"
        for lookup, title in self.lookup_choices:
            yield {
                "selected": chosen == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }


def _people(reports: Iterable[Report]) -> list[User]:
    seen: dict[int, User] = {}
    for report in reports:
        seen.setdefault(report.reported_id, report.reported)
    return list(seen.values())


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "review", "reason", "about", "reporter", "status"]
    list_filter = [QueueFilter, "reason"]
    list_select_related = ["reported", "reporter", "message"]
    ordering = ["created_at", "pk"]
    search_fields = ["reported__username", "reporter__username"]
    actions = ["dismiss_reports", "hide_messages", "mute_people", "close_accounts"]
    readonly_fields = [f.name for f in Report._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from the site's forms

    def has_delete_permission(self, request: HttpRequest, obj: Report | None = None) -> bool:
        return False  # settled, never erased: the staff log points at them

    def has_close_permission(self, request: HttpRequest) -> bool:
        """Closing an account is changing the person: their admin permission, not the report's."""
        return request.user.has_perm("accounts.change_user")

    def describe(self, report: Report) -> str:
        """A report as the action's page lists it."""
        what = (report.message.text or report.message.preset)[:60] if report.message else _("the person")
        return f"{report.reported.username}: {report.get_reason_display()} ({what})"

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(request, {"title": _("Reports to review"), **(extra_context or {})})

    @admin.display(description=gettext_lazy("reported"), ordering="reported__username")
    def review(self, report: Report) -> str:
        url = reverse("admin:talk_report_review", args=[report.pk])
        return format_html('<a href="{}">{}</a>', url, report.reported.username)

    @admin.display(description=gettext_lazy("about"))
    def about(self, report: Report) -> str:
        if report.message is None:
            return _("the person")
        return format_html("“{}”", (report.message.text or report.message.preset)[:60])

    @admin.action(description=gettext_lazy("Dismiss the selected reports"), permissions=["change"])
    def dismiss_reports(self, request: HttpRequest, queryset: QuerySet[Report]) -> TemplateResponse | None:
        def take(staff: User, reason: str, _seconds: int) -> str:
            done = moderation.dismiss(queryset, staff=staff, reason=reason)
            return ngettext("%(n)d report dismissed.", "%(n)d reports dismissed.", done) % {"n": done}

        return reason_step(
            self, request, queryset, action="dismiss_reports", title=_("Dismiss reports"), take=take
        )

    @admin.action(description=gettext_lazy("Hide the reported messages"), permissions=["change"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Report]) -> TemplateResponse | None:
        def take(staff: User, reason: str, _seconds: int) -> str:
            done = moderation.hide_message(queryset, staff=staff, reason=reason)
            return ngettext("%(n)d message hidden.", "%(n)d messages hidden.", done) % {"n": done}

        return reason_step(
            self, request, queryset, action="hide_messages", title=_("Hide messages"), take=take
        )

    @admin.action(description=gettext_lazy("Mute the reported people from chat"), permissions=["change"])
    def mute_people(self, request: HttpRequest, queryset: QuerySet[Report]) -> TemplateResponse | None:
        def take(staff: User, reason: str, seconds: int) -> str:
            people = _people(queryset.select_related("reported"))
            for person in people:
                moderation.mute(person, staff=staff, reason=reason, seconds=seconds)
            return ngettext("%(n)d person muted.", "%(n)d people muted.", len(people)) % {"n": len(people)}

        return reason_step(
            self, request, queryset, action="mute_people", title=_("Mute from chat"), take=take, timed=True
        )

    @admin.action(description=gettext_lazy("Close the reported people's accounts"), permissions=["close"])
    def close_accounts(self, request: HttpRequest, queryset: QuerySet[Report]) -> TemplateResponse | None:
        def take(staff: User, reason: str, _seconds: int) -> str:
            closed = sum(
                moderation.close(person, staff=staff, reason=reason)
                for person in _people(queryset.select_related("reported"))
            )
            return ngettext("%(n)d account closed.", "%(n)d accounts closed.", closed) % {"n": closed}

        return reason_step(
            self, request, queryset, action="close_accounts", title=_("Close accounts"), take=take
        )

    def get_urls(self) -> list[URLPattern]:
        review = path(
            "<int:report_id>/review/", self.admin_site.admin_view(self.review_view), name="talk_report_review"
        )
        return [review, *super().get_urls()]

    def review_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        """One report with what staff need to judge it, and the queue's actions as buttons."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        report = (
            Report.objects.select_related("reported", "reporter", "handled_by", "message__table__record")
            .filter(pk=report_id)
            .first()
        )
        if report is None:
            raise Http404("No such report.")
        message = report.message
        table = message.table if message is not None else None
        actions = self.get_actions(request)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Report about %(name)s") % {"name": report.reported.username},
            "opts": self.model._meta,
            "report": report,
            "around": moderation.context(message) if message is not None else [],
            "table": table,
            "replay": reverse("replay", args=[table.record_id]) if table and table.record_id else "",
            "tournament": message.tournament if message is not None else None,
            "earlier": StaffAction.objects.filter(target=report.reported)
            .select_related("staff")
            .order_by("-created_at")[:10],
            "other_reports": Report.objects.filter(reported=report.reported).exclude(pk=report.pk).count(),
            "muted_until": Mute.objects.filter(user=report.reported, until__gt=timezone.now())
            .order_by("-until")
            .values_list("until", flat=True)
            .first(),
            "buttons": [(name, entry[2]) for name, entry in actions.items() if entry is not None]
            if report.status == Report.Status.OPEN
            else [],
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "changelist": reverse("admin:talk_report_changelist"),
        }
        return TemplateResponse(request, "admin/talk/report/review.html", context)


@admin.register(Mute)
class MuteAdmin(admin.ModelAdmin):
    list_display = ["user", "until", "by", "reason", "created_at"]
    list_select_related = ["user", "by"]
    ordering = ["-until"]
    search_fields = ["user__username"]
    actions = ["end_mutes"]
    readonly_fields = [f.name for f in Mute._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a mute comes from a report's review, with its log entry

    def has_delete_permission(self, request: HttpRequest, obj: Mute | None = None) -> bool:
        return False

    def describe(self, row: Mute) -> str:
        return _("%(name)s, muted until %(until)s") % {
            "name": row.user.username,
            "until": f"{row.until:%Y-%m-%d %H:%M}",
        }

    @admin.action(description=gettext_lazy("End the selected mutes now"), permissions=["change"])
    def end_mutes(self, request: HttpRequest, queryset: QuerySet[Mute]) -> TemplateResponse | None:
        def take(staff: User, reason: str, _seconds: int) -> str:
            ended = sum(moderation.unmute(row, staff=staff, reason=reason) for row in queryset)
            return ngettext("%(n)d mute ended.", "%(n)d mutes ended.", ended) % {"n": ended}

        return reason_step(self, request, queryset, action="end_mutes", title=_("End mutes"), take=take)


@admin.register(BannedWord)
class BannedWordAdmin(admin.ModelAdmin):
    list_display = ["word", "created_at"]
    search_fields = ["word"]
    ordering = ["word"]


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    """Chat as staff read it, the word list's hits first (hidden, shown to their authors alone).
    Read-only: hiding a message or muting its author goes through a report's review, which
    logs the step (``StaffAction``)."""

    list_display = ["created_at", "user", "room", "table", "tournament", "text", "hidden"]
    list_filter = ["hidden", "room"]
    list_select_related = ["user"]
    search_fields = ["user__username", "text"]
    ordering = ["-hidden", "-created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
