// What the server lets this account see beyond its desks' own reads, asked once
// per server by the app (App.svelte) and read by every desk's tabs: whether the
// markers' figures are served to it (a lead marker, an administrator).
export const access = $state({ figures: false });
