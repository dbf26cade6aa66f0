"""Announcing: the outbox, the kinds of announcements stored in it, the front ends' port."""
