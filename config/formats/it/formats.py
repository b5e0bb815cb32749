"""Italian dates, with months small as Italian writes them (30 nov 2026): "b" where English
has "M", which capitalises whatever the catalogue says; the full names come small from
config/formats/names.py."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j b Y"
SHORT_DATETIME_FORMAT = "j b Y H:i"
MONTH_DAY_FORMAT = "j b"
