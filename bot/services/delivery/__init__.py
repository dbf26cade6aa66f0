"""Delivery: the outbox, its dispatcher, the announcements' kinds and the front ends' port."""
