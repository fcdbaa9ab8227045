"""Text and keyboards people see: built from engine state and the locale catalogs, never sent."""
