from thousand.launch import entry

entry()
