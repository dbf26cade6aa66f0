-- Placeholder for the web branch's migration 0009 (merged alongside leagues, 0011): its
-- own file of the same name replaces this one.
SELECT 1;
