from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

from accounts.models import StaffAction, User


@admin.register(User)
class CapstoneUserAdmin(UserAdmin):
    fieldsets = (*(UserAdmin.fieldsets or ()), ("Profile", {"fields": ("bio",)}))


@admin.register(StaffAction)
class StaffActionAdmin(admin.ModelAdmin):
    """The staff's log (issue 45): read only, so that no step can be unsaid or rewritten."""

    list_display = ["created_at", "staff", "kind", "target", "reason"]
    list_filter = ["kind"]
    list_select_related = ["staff", "target"]
    search_fields = ["target__username", "staff__username", "reason"]
    ordering = ["-created_at", "-pk"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: StaffAction | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: StaffAction | None = None) -> bool:
        return False
