"""Date formats by language (Django's FORMAT_MODULE_PATH): templates name a format
("SHORT_DATE_FORMAT") and each language writes it its own way."""
