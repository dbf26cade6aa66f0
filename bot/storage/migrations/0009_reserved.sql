-- Placeholder: this number belongs to another change merged alongside leagues (0011);
-- the owner's migration replaces this file.
SELECT 1;
