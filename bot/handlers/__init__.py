"""Handlers: each reads like the user story it serves: parse, lock, act, show."""
