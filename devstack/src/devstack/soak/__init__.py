"""`make soak` (`python -m devstack.soak`): a mixed load held on the whole platform for minutes,
and whether it came out clean: no 5xx, backlogs drained, no process growing in memory."""
