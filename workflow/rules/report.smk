# placeholder: owned by the issue that builds this stage
MAIN_TARGETS = []
