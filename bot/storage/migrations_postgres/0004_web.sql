-- Placeholder for the web branch's migration 0004 (merged alongside leagues, 0006): its
-- own file of the same name replaces this one.
SELECT 1;
