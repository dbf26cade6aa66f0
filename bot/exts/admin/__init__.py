"""Extensions for server administrators."""
