"""Discord pieces shared by the extensions: messages, buttons, forms, error replies."""
