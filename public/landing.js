// Landing page behaviour without React: the manifesto dialog and, when configured, Google's sign-in button.
(function () {
  var dialog = document.getElementById("manifesto-dialog");
  document.addEventListener("click", function (event) {
    var t = event.target.closest && event.target.closest("[data-open-manifesto],[data-close-manifesto]");
    if (!t || !dialog) return;
    if (t.hasAttribute("data-open-manifesto")) {
      dialog.showModal();
      dialog.querySelector(".manifesto-dialog__inner").scrollTop = 0;
    } else {
      dialog.close();
    }
  });
  if (dialog) {
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog) dialog.close(); // click on the backdrop
    });
  }

  var slots = document.querySelectorAll("[data-google-client-id]");
  if (!slots.length) return;
  var clientId = slots[0].getAttribute("data-google-client-id");
  var script = document.createElement("script");
  script.src = "https://accounts.google.com/gsi/client";
  script.async = true;
  script.onload = function () {
    google.accounts.id.initialize({
      client_id: clientId,
      ux_mode: "popup",
      auto_select: false,
      callback: function (response) {
        fetch("/api/auth/google", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ credential: response.credential }),
        }).then(function (res) {
          return res.json().then(function (body) {
            if (res.ok) {
              localStorage.setItem("user", JSON.stringify(body.user));
              location.assign("/dashboard");
            } else if (res.status === 423) {
              alert("Account sospeso: " + (body.reason || ""));
            } else {
              console.warn("Login failed", body);
            }
          });
        });
      },
    });
    slots.forEach(function (slot) {
      slot.textContent = "";
      google.accounts.id.renderButton(slot, { theme: "filled_black", size: "large", text: "signin_with", locale: "it" });
    });
  };
  document.head.appendChild(script);
})();
