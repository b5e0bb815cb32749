"""The site's own plumbing that is not configuration: the API, the rules page, health, the
shared HTTP and socket helpers, the channel layers."""
