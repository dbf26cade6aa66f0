"""Delivery: the dispatcher that hands the outbox's announcements to a front end, in order, once."""
