// the page is being written: see PROTOCOL.md for what it speaks
document.getElementById("app").textContent = "Yacht";
