# placeholder: owned by the issue that builds this part
BUTENEERS_TARGETS = []
