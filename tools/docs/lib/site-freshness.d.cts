/** Whether dist/docs was built after the last change under docs/. */
export function siteIsFresh(root: string): boolean;
