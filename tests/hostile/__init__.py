"""The hostile-request corpus and the site it is sent to."""
