// Starts Swagger UI from a file, not an inline script, so the page's Content-Security-Policy
// can forbid inline scripts. The options are FastAPI's own, plus validatorUrl: null, which
// stops Swagger UI from sending the document to an online validator.
"use strict";
const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.openapi,
  domNode: root,
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
