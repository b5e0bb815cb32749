"""English dates, day first as the rest of the site writes them: 30 November 2026."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y H:i"
MONTH_DAY_FORMAT = "j M"
